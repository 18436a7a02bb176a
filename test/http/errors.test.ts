/**
 * Errors the router produces (unknown route, wrong method, unknown method) leave as the same JSON
 * envelope as the store's errors. Sent over real HTTP with node:http, which can send any method.
 */
import { expect } from 'chai';
import { httpRequest, openReadApp, serveApp, type ReadApp, type Served } from '../helpers/read-http.js';

interface Row {
  method: string;
  url: string;
  status: number;
  code: string;
  allow?: string;
}

const rows: Row[] = [
  { method: 'GET', url: '/', status: 404, code: 'ROUTE_NOT_FOUND' },
  { method: 'GET', url: '/nope', status: 404, code: 'ROUTE_NOT_FOUND' },
  { method: 'GET', url: '/api/v1', status: 404, code: 'ROUTE_NOT_FOUND' },
  { method: 'GET', url: '/api/v2/networks', status: 404, code: 'ROUTE_NOT_FOUND' },
  { method: 'GET', url: '/api/v1/networks/evm:sepolia/rpc_urls', status: 404, code: 'ROUTE_NOT_FOUND' },
  { method: 'GET', url: '/api/v1/health/x', status: 404, code: 'ROUTE_NOT_FOUND' },
  { method: 'DELETE', url: '/nope', status: 404, code: 'ROUTE_NOT_FOUND' },
  { method: 'POST', url: '/api/v1/networks', status: 405, code: 'METHOD_NOT_ALLOWED', allow: 'HEAD, GET' },
  { method: 'PUT', url: '/networks', status: 405, code: 'METHOD_NOT_ALLOWED', allow: 'HEAD, GET' },
  { method: 'DELETE', url: '/api/v1/networks', status: 405, code: 'METHOD_NOT_ALLOWED', allow: 'HEAD, GET' },
  {
    method: 'POST',
    url: '/api/v1/networks/evm:sepolia',
    status: 405,
    code: 'METHOD_NOT_ALLOWED',
    allow: 'HEAD, GET, PATCH',
  },
  { method: 'PUT', url: '/networks/evm:sepolia', status: 405, code: 'METHOD_NOT_ALLOWED', allow: 'HEAD, GET, PATCH' },
  {
    method: 'DELETE',
    url: '/api/v1/networks/evm:sepolia',
    status: 405,
    code: 'METHOD_NOT_ALLOWED',
    allow: 'HEAD, GET, PATCH',
  },
  {
    method: 'DELETE',
    url: '/api/v1/networks/evm:nope',
    status: 405,
    code: 'METHOD_NOT_ALLOWED',
    allow: 'HEAD, GET, PATCH',
  },
  { method: 'POST', url: '/api/v1/health', status: 405, code: 'METHOD_NOT_ALLOWED', allow: 'HEAD, GET' },
  { method: 'DELETE', url: '/api/v1/ready', status: 405, code: 'METHOD_NOT_ALLOWED', allow: 'HEAD, GET' },
  // Methods the router does not implement at all (Node's parser accepts them, so they are reachable).
  { method: 'PROPFIND', url: '/api/v1/networks', status: 501, code: 'NOT_IMPLEMENTED' },
  { method: 'TRACE', url: '/api/v1/networks/evm:sepolia', status: 501, code: 'NOT_IMPLEMENTED' },
  { method: 'PURGE', url: '/nope', status: 501, code: 'NOT_IMPLEMENTED' },
  // The store's errors, for comparison: the same envelope.
  { method: 'GET', url: '/api/v1/networks/evm:nope', status: 404, code: 'NETWORK_NOT_FOUND' },
  { method: 'GET', url: '/api/v1/networks/nope', status: 400, code: 'INVALID_ID' },
  { method: 'GET', url: '/api/v1/networks?page=0', status: 400, code: 'INVALID_QUERY' },
];

describe('router errors: 404 / 405 / 501 envelope', () => {
  let fx: ReadApp;
  let served: Served;
  before(async () => {
    fx = await openReadApp();
    served = await serveApp(fx.app);
  });
  after(async () => {
    await served.close();
    await fx.close();
  });

  for (const row of rows) {
    it(`${row.method} ${row.url} -> ${row.status} ${row.code}`, async () => {
      const res = await httpRequest(`${served.url}${row.url}`, row.method);
      expect(res.status).to.equal(row.status);
      expect(res.headers['content-type']?.[0]).to.match(/^application\/json/);
      const body = JSON.parse(res.body) as Record<string, unknown>;
      expect(Object.keys(body).filter((k) => k !== 'details')).to.deep.equal(['success', 'data', 'error', 'code']);
      expect(body).to.include({ success: false, data: null, code: row.code });
      expect(body.code).to.match(/^[A-Z]+(_[A-Z]+)*$/);
      expect(body.error).to.be.a('string').and.not.equal('');
      if (row.allow !== undefined) {
        expect(res.headers.allow).to.deep.equal([row.allow]);
        expect(body.error).to.contain(row.allow);
      }
    });
  }

  it('HEAD on an unknown route is a 404 without a body', async () => {
    const res = await httpRequest(`${served.url}/nope`, 'HEAD');
    expect(res.status).to.equal(404);
    expect(res.body).to.equal('');
  });
});
