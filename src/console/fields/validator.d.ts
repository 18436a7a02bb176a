// The PATCH body's schema, compiled at build time by scripts/build-console.ts (AJV standalone code).
declare module 'virtual:update-validator' {
  import type { ErrorObject } from 'ajv';
  export const validateUpdate: ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
}
