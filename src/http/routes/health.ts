/**
 * Liveness and readiness. Neither needs the API key: orchestrators probe them without one.
 * Readiness is 200 while networks are served (invalid files only make it "degraded": one bad file
 * merged in git must not take every replica out of service) and 503 before the first load, when
 * the config folder is missing or unreadable, or when the watcher is not running.
 */
import type Router from '@koa/router';
import type { NetworkStore } from '../../store/network-store.js';

export function healthRoutes(router: Router, store: NetworkStore): void {
  router.get('/api/v1/health', (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = 'OK';
  });

  router.get('/api/v1/ready', (ctx) => {
    const report = store.readiness();
    ctx.status = report.ready ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = report;
  });
}
