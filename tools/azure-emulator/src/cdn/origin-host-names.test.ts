import { describe, expect, it } from 'vitest';
import { originHostNameProblem } from './origin-host-names.js';

describe('origin host names', () => {
  it('takes domain names, IPv4 and IPv6 addresses', () => {
    for (const host of ['app.example.com', 'a', 'web_1.example', '10.0.0.1', '2001:db8::1', 'ep.withdrawn.invalid'])
      expect(originHostNameProblem(host)).toBeUndefined();
  });

  it('refuses an empty or malformed host name with Azure wording', () => {
    expect(originHostNameProblem('')).toBe('HostName "" is invalid. It must be a valid domain name, IP version 4, or IP version 6.');
    for (const host of ['-a.example', 'a..example', 'a.example.', 'http://a.example', 'a example', 'a.example:8080', 'a.ex_ample'])
      expect(originHostNameProblem(host)).toMatch(/is invalid/);
  });
});
