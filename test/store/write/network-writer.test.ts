/**
 * The writer, end to end through PATCH: golden files (a realistic file before, the request, the
 * exact bytes expected after) and disk failures injected through the disk steps.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { PROJECT_ROOT } from '../../../src/paths.js';
import { standardFiles } from '../../helpers/fixtures.js';
import { holdLockInChild, type LockHolder } from '../../helpers/write-lock-holder.js';
import {
  expectErrorEnvelope,
  FaultyFs,
  leftoversOf,
  sha256Etag,
  writeRig,
  type Fault,
  type FaultyOp,
  type WriteRig,
} from '../../helpers/write-support.js';

const GOLDEN = path.join(PROJECT_ROOT, 'test', 'fixtures', 'golden');

interface GoldenCase {
  name: string;
  ext: string;
  id: string;
  body: { rpc_urls: unknown[] };
  before: string;
  after: string;
}

function goldenCases(): GoldenCase[] {
  return readdirSync(GOLDEN).map((name) => {
    const dir = path.join(GOLDEN, name);
    const beforeFile = readdirSync(dir).find((f) => f.startsWith('before.'));
    if (!beforeFile) throw new Error(`${dir} has no before.yaml or before.yml`);
    const ext = path.extname(beforeFile);
    const { id, body } = JSON.parse(readFileSync(path.join(dir, 'request.json'), 'utf8')) as {
      id: string;
      body: GoldenCase['body'];
    };
    const read = (f: string) => readFileSync(path.join(dir, f), 'utf8');
    return { name, ext, id, body, before: read(beforeFile), after: read(`after${ext}`) };
  });
}

describe('store/network-writer', () => {
  let rig: WriteRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  describe('golden files: rpc_urls replaced, every other byte kept', () => {
    for (const c of goldenCases()) {
      it(`${c.name} (${c.id}, ${c.ext})`, async () => {
        const [family, name] = c.id.split(':') as [string, string];
        const rel = `${family}/${name}${c.ext}`;
        rig = await writeRig({ [rel]: c.before });
        const res = await request(rig.app.callback()).patch(`/api/v1/networks/${c.id}`).send(c.body);
        expect(res.status, res.text).to.equal(200);
        expect(readFileSync(rig.file(rel), 'utf8')).to.equal(c.after);
        expect(res.headers.etag).to.equal(sha256Etag(c.after));
        const wire = c.body.rpc_urls.map((e) => (typeof e === 'string' ? { url: e, weight: 100 } : e));
        expect(res.body.data.rpc_urls).to.deep.equal(wire);
        expect(await leftoversOf(rig)).to.deep.equal([]);
      });
    }
  });

  it('temp files go in .tmp/, which is made again if something removed it (git clean -fdx)', async () => {
    rig = await writeRig();
    const agent = request(rig.app.callback());
    const first = await agent.patch('/api/v1/networks/evm:sepolia').send({ rpc_urls: ['https://one.example.com'] });
    expect(first.status, first.text).to.equal(200);
    expect(readdirSync(path.join(rig.root, '.tmp'))).to.deep.equal([]);
    rmSync(path.join(rig.root, '.tmp'), { recursive: true });
    const second = await agent.patch('/api/v1/networks/evm:sepolia').send({ rpc_urls: ['https://two.example.com'] });
    expect(second.status, second.text).to.equal(200);
    expect(readFileSync(rig.file('evm/sepolia.yaml'), 'utf8')).to.include('https://two.example.com');
    expect(await leftoversOf(rig)).to.deep.equal([]);
  });

  describe('the cross-process lock', () => {
    let holder: LockHolder | undefined;
    afterEach(async () => {
      await holder?.kill();
      holder = undefined;
    });

    /** Disk steps noting, at each step of a PATCH, whether the lock folder of evm:sepolia exists. */
    function lockWatchingFs(lockFolder: () => string, afterFirstRead = (): void => {}) {
      const fs = new FaultyFs();
      const steps: Array<[string, boolean]> = [];
      const { readFile, writeNewDurable, fsyncDir, renameIfUnchanged } = fs;
      const outcomes: string[] = [];
      let foundRead!: () => void;
      const read = new Promise<void>((resolve) => (foundRead = resolve));
      fs.readFile = async (file) => {
        const bytes = await readFile(file);
        steps.push(['read', existsSync(lockFolder())]);
        if (steps.length === 1) afterFirstRead();
        foundRead();
        return bytes;
      };
      fs.renameIfUnchanged = async (...args) => {
        const outcome = await renameIfUnchanged(...args);
        outcomes.push(outcome);
        return outcome;
      };
      fs.writeNewDurable = async (...args) => {
        steps.push(['write', existsSync(lockFolder())]);
        return writeNewDurable(...args);
      };
      fs.fsyncDir = async (dir) => {
        steps.push(['sync folder', existsSync(lockFolder())]);
        return fsyncDir(dir);
      };
      return { fs, steps, outcomes, read };
    }

    const folderOf = () => path.join((rig as WriteRig).root, '.locks', 'evm~sepolia.lock');
    const sepoliaFile = () => (rig as WriteRig).file('evm/sepolia.yaml');
    /** Another replica's write of evm:sepolia: a comment line added on top. */
    const theirWrite = () =>
      writeFileSync(sepoliaFile(), `# written by the other replica\n${readFileSync(sepoliaFile(), 'utf8')}`);
    /** Neither write undid the other: their line and this PATCH's value are both in the file. */
    const expectBothWrites = () => {
      const text = readFileSync(sepoliaFile(), 'utf8');
      expect(text.startsWith('# written by the other replica\n'), text).to.equal(true);
      expect(text).to.include('https://mine.example.com').and.not.include('backup.example.com');
    };

    it('a PATCH reads without the lock and holds it for exactly its write steps', async () => {
      const { fs, steps, outcomes } = lockWatchingFs(folderOf);
      rig = await writeRig(standardFiles(), { fs });
      const res = await request(rig.app.callback())
        .patch('/api/v1/networks/evm:sepolia')
        .send({ rpc_urls: ['https://one.example.com'] });
      expect(res.status, res.text).to.equal(200);
      expect(steps).to.deep.equal([
        ['read', false],
        ['write', true],
        ['sync folder', true],
      ]);
      expect(outcomes).to.deep.equal(['renamed']);
      expect(existsSync(folderOf()), 'lock folder once answered').to.equal(false);
    });

    it('a file changed between the read and the write (another replica): the PATCH reads it again holding the lock', async () => {
      // Their write lands just after the read, lock taken and let go.
      const { fs, steps, outcomes } = lockWatchingFs(folderOf, theirWrite);
      rig = await writeRig(standardFiles(), { fs });
      const res = await request(rig.app.callback())
        .patch('/api/v1/networks/evm:sepolia')
        .send({ rpc_urls: ['https://mine.example.com'] });
      expect(res.status, res.text).to.equal(200);
      expectBothWrites();
      expect(steps).to.deep.equal([
        ['read', false],
        ['write', true],
        ['read', true],
        ['write', true],
        ['sync folder', true],
      ]);
      expect(outcomes).to.deep.equal(['changed', 'renamed']);
      expect(await leftoversOf(rig)).to.deep.equal([]);
    });

    it("a lock another process holds: the PATCH waits for it, then reads again and writes over that process's change", async () => {
      const { fs, steps, outcomes, read } = lockWatchingFs(folderOf);
      rig = await writeRig(standardFiles(), { fs });
      holder = await holdLockInChild(path.join(rig.root, '.locks'), 'evm:sepolia');
      const answer = request(rig.app.callback())
        .patch('/api/v1/networks/evm:sepolia')
        .send({ rpc_urls: ['https://mine.example.com'] })
        .then((res) => res);
      // Read while the other process holds the lock; the write then waits for it.
      await read;
      theirWrite();
      await holder.release();
      const res = await answer;
      expect(res.status, res.text).to.equal(200);
      expectBothWrites();
      // Two reads: the first while the other process held the lock (its change then found before
      // the rename), the second holding the lock.
      expect(steps).to.deep.equal([
        ['read', true],
        ['write', true],
        ['read', true],
        ['write', true],
        ['sync folder', true],
      ]);
      expect(outcomes).to.deep.equal(['changed', 'renamed']);
      expect(existsSync(folderOf()), 'lock folder once answered').to.equal(false);
    });
  });

  describe('the new text, checked before anything is written', () => {
    /** Disk steps counting the temp files written: none when a PATCH is refused. */
    function writeCountingFs() {
      const fs = new FaultyFs();
      return { fs, writes: () => fs.calls.writeNewDurable };
    }

    /** Files a PATCH must refuse, what the error says, and whether its details point at lines of the file. */
    const refused: Array<{ what: string; file: string; error: string; located?: boolean }> = [
      {
        what: 'a change that would change another field too (an anchor on rpc_urls used elsewhere)',
        file: 'rpc_urls: &u\n  - https://old.example.com\nbackup: *u\n',
        error: 'a YAML anchor on rpc_urls is used elsewhere',
      },
      {
        what: 'a file that is not a valid network (a bad chain_id), though the change would fix it',
        file: 'chain_id: 0\nrpc_urls:\n  - https://old.example.com\n',
        error: 'is not a valid network file',
        located: true,
      },
      {
        what: 'a file that is not a valid network (no rpc_urls), though the change would fix it',
        file: '# no urls yet\nchain_id: 1\n',
        error: 'is not a valid network file',
        located: true,
      },
      {
        what: 'a file that is not valid YAML',
        file: 'rpc_urls: [https://old.example.com\n',
        error: 'is not valid YAML',
      },
    ];
    for (const { what, file, error, located } of refused) {
      it(`${what}: 409 FILE_INVALID, nothing written`, async () => {
        const { fs, writes } = writeCountingFs();
        rig = await writeRig({ 'evm/sepolia.yaml': file }, { fs });
        const res = await request(rig.app.callback())
          .patch('/api/v1/networks/evm:sepolia')
          .send({ rpc_urls: ['https://one.example.com'] });
        const details = expectErrorEnvelope(res, 409, 'FILE_INVALID');
        expect(res.body.error).to.include(error);
        if (located) expect(details.map((d) => d.message).join('\n')).to.match(/^evm\/sepolia\.yaml:\d+:\d+: /m);
        expect(writes(), 'no temp file written').to.equal(0);
        expect(readFileSync(rig.file('evm/sepolia.yaml'), 'utf8')).to.equal(file);
        expect(await leftoversOf(rig)).to.deep.equal([]);
      });
    }
  });

  describe('disk failures through the disk steps', () => {
    const FAULTS: Array<{ op: FaultyOp; fault: Fault; what: string }> = [
      { op: 'writeNewDurable', fault: { code: 'ENOSPC' }, what: 'disk full before the temp file exists' },
      {
        op: 'writeNewDurable',
        fault: { code: 'EIO', afterRealOp: true },
        what: 'fsync of the temp file fails after it was written',
      },
      { op: 'rename', fault: { code: 'EROFS' }, what: 'the file system turned read-only before the rename' },
      { op: 'rename', fault: { code: 'EIO' }, what: 'the rename itself fails' },
    ];
    const SEPOLIA = 'evm/sepolia.yaml';
    const BODY = { rpc_urls: ['https://after-failure.example.com'] };

    for (const { op, fault, what } of FAULTS) {
      it(`${op} ${fault.code} (${what}) -> 503 STORAGE_UNAVAILABLE, old file served, then recovers`, async () => {
        const fs = new FaultyFs();
        rig = await writeRig(standardFiles(), { fs });
        const app = rig.app.callback();
        const before = readFileSync(rig.file(SEPOLIA));
        fs.fail(op, fault);

        const res = await request(app).patch('/api/v1/networks/evm:sepolia').send(BODY);
        expectErrorEnvelope(res, 503, 'STORAGE_UNAVAILABLE');
        expect(res.body.error).to.contain(fault.code);
        expect(fs.calls[op], `${op} was not reached`).to.be.greaterThan(0);
        expect(readFileSync(rig.file(SEPOLIA)).equals(before), 'the old file changed').to.equal(true);
        expect(await leftoversOf(rig)).to.deep.equal([]);

        await rig.store.whenIdle();
        const got = await request(app).get('/api/v1/networks/evm:sepolia').expect(200);
        expect(got.headers.etag).to.equal(sha256Etag(before));
        const ready = await request(app).get('/api/v1/ready');
        expect(ready.body.status).to.equal('degraded');
        expect(ready.body.components.storage.status).to.equal('degraded');
        expect(ready.body.components.storage.error).to.contain(fault.code);

        fs.heal();
        const retry = await request(app).patch('/api/v1/networks/evm:sepolia').send(BODY);
        expect(retry.status, retry.text).to.equal(200);
        expect(readFileSync(rig.file(SEPOLIA), 'utf8')).to.contain('https://after-failure.example.com');
        const healed = await request(app).get('/api/v1/ready').expect(200);
        expect(healed.body.status).to.equal('healthy');
        expect(healed.body.components.storage).to.deep.equal({ status: 'healthy' });
        expect(await leftoversOf(rig)).to.deep.equal([]);
      });
    }

    it('a failure on one network leaves the others writable', async () => {
      const fs = new FaultyFs();
      rig = await writeRig(standardFiles(), { fs });
      fs.fail('rename', { code: 'ENOSPC' });
      await request(rig.app.callback()).patch('/api/v1/networks/evm:sepolia').send(BODY).expect(503);
      fs.heal();
      await request(rig.app.callback()).patch('/api/v1/networks/solana:devnet').send(BODY).expect(200);
      expect(readFileSync(rig.file('solana/devnet.yaml'), 'utf8')).to.contain('https://after-failure.example.com');
    });
  });
});
