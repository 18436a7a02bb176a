/**
 * The published contract: the OpenAPI document and the JSON Schemas themselves, serialised once.
 * Open to all, like the schemas a public API documents.
 */
import type Router from '@koa/router';
import type { Schemas } from '../../store/validation/schemas.js';
import { buildOpenApi } from '../openapi.js';

export function docRoutes(router: Router, schemas: Schemas): void {
  const documents: Record<string, string> = {
    '/api/v1/openapi.json': JSON.stringify(buildOpenApi(schemas)),
    '/api/v1/schemas/network.json': JSON.stringify(schemas.network),
    '/api/v1/schemas/update-network.json': JSON.stringify(schemas.updateNetwork),
  };
  for (const [path, body] of Object.entries(documents)) {
    router.get(path, (ctx) => {
      ctx.type = 'application/json';
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.body = body;
    });
  }
}
