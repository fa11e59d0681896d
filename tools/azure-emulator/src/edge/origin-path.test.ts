import { describe, expect, it } from 'vitest';
import { originRequestPath } from './origin-path.js';

const wildcard = (prefix: string) => ({ prefixLength: prefix.length, exact: false });
const exact = { prefixLength: 0, exact: true };

describe('originRequestPath', () => {
  it('leaves the path alone without an origin path', () => {
    expect(originRequestPath('/foo/a', wildcard('/foo'), '')).toBe('/foo/a');
    expect(originRequestPath('/foo', exact, '')).toBe('/foo');
  });

  it("puts the origin path in place of the wildcard pattern's fixed part (how-to-configure-endpoints, classic's table)", () => {
    expect(originRequestPath('/foo/a/b/c/', wildcard('/foo'), '/fwd/')).toBe('/fwd/a/b/c/');
    expect(originRequestPath('/foo/bar', wildcard('/foo'), '/')).toBe('/bar');
    expect(originRequestPath('/foo/', wildcard('/foo'), '/')).toBe('/');
    expect(originRequestPath('/foo/bar', wildcard('/foo'), '/fwd')).toBe('/fwd/bar');
  });

  it('precedes the whole path on /* and replaces the whole path on an exact pattern', () => {
    expect(originRequestPath('/sub', wildcard(''), '/fwd/')).toBe('/fwd/sub');
    expect(originRequestPath('/', wildcard(''), '/fwd/')).toBe('/fwd/');
    expect(originRequestPath('/foo', exact, '/fwd/')).toBe('/fwd/');
    expect(originRequestPath('/foo', exact, '/v2')).toBe('/v2');
  });
});
