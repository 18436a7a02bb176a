/**
 * A relayer's answers are its own text: one that echoes the request back (a proxy's error page, a
 * debug handler) hands netcfg the key it was sent. Every text a relayer answers passes through
 * `keyScrubber(key)` before it reaches a status, a log line or an event: the key in any letter
 * case, and as URL-, base64-, base64url-, hex- or JSON-encoded text, becomes `***`.
 */
import { redactText } from '../../redact.js';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every form of `key` a relayer could echo, longest first (so a longer form is replaced whole). */
function formsOf(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  const forms = [
    key,
    encodeURIComponent(key),
    encodeURIComponent(encodeURIComponent(key)),
    JSON.stringify(key).slice(1, -1),
    bytes.toString('base64'),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
    bytes.toString('hex'),
  ];
  return [...new Set(forms)].filter((f) => f.length >= 4).sort((a, b) => b.length - a.length);
}

/** `text` with the key (every form of it, any case) masked, then every URL secret netcfg masks anyway. */
export function keyScrubber(key: string): (text: string) => string {
  if (key.length < 4) return redactText;
  const pattern = new RegExp(formsOf(key).map(escapeRegExp).join('|'), 'gi');
  return (text) => redactText(text.replace(pattern, '***'));
}
