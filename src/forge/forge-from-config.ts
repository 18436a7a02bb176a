/**
 * The forge GIT_PROPOSALS names, built once at start from the settings src/config read, with
 * each call's deadline (GIT_REMOTE_TIMEOUT_MS, the same as a push's) and answer cap.
 */
import { DEFAULT_MAX_BYTES } from './forge-fetch.js';
import type { Forge, ForgeSettings } from './forge.js';
import { giteaForge } from './gitea.js';
import { githubForge } from './github.js';
import { gitlabForge } from './gitlab.js';

export function forgeFromConfig(settings: ForgeSettings, options: { timeoutMs: number; maxBytes?: number }): Forge {
  const limits = { timeoutMs: options.timeoutMs, maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES };
  switch (settings.kind) {
    case 'github':
      return githubForge(settings, limits);
    case 'gitlab':
      return gitlabForge(settings, limits);
    case 'gitea':
      return giteaForge(settings, limits);
  }
}
