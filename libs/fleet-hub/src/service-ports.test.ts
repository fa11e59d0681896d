import { describe, expect, it } from 'vitest';
import { describePorts, samePorts } from './service-ports.js';

describe('samePorts (upstream equality.Semantic.DeepEqual on []ServicePort)', () => {
  const http = { name: 'http', port: 80, protocol: 'TCP' as const, targetPort: 8080 };

  it('is order-sensitive and compares every field', () => {
    const https = { name: 'https', port: 443, protocol: 'TCP' as const };
    expect(samePorts([http, https], [http, https])).toBe(true);
    expect(samePorts([http, https], [https, http])).toBe(false);
    expect(samePorts([http], [{ ...http, port: 81 }])).toBe(false);
    expect(samePorts([http], [{ ...http, protocol: 'UDP' }])).toBe(false);
    expect(samePorts([http], [{ ...http, name: 'web' }])).toBe(false);
    expect(samePorts([http], [{ ...http, targetPort: 9090 }])).toBe(false);
    expect(samePorts([http], [{ ...http, appProtocol: 'h2c' }])).toBe(false);
    expect(samePorts([http], [http, http])).toBe(false);
  });

  it('reads absent fields as their Go zero values', () => {
    expect(samePorts([{ port: 80 }], [{ port: 80, name: '', targetPort: 0 }])).toBe(true);
    expect(samePorts([{ port: 80, targetPort: 8080 }], [{ port: 80, targetPort: '8080' }])).toBe(false);
    expect(samePorts([{ port: 80 }], [{ port: 80, appProtocol: '' }])).toBe(false);
    expect(samePorts(undefined, [])).toBe(true);
  });

  it('describes ports with every compared field', () => {
    expect(describePorts([http, { port: 443, appProtocol: 'h2' }])).toBe('http:80/TCP->8080, 443/TCP (h2)');
    expect(describePorts([{ port: 80, targetPort: 'web' }])).toBe('80/TCP->"web"');
    expect(describePorts([])).toBe('no ports');
  });
});
