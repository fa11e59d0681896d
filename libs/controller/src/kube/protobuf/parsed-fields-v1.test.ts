import { describe, expect, it } from 'vitest';
import { parsedFieldsV1 } from './parsed-fields-v1.js';

const fieldsOf = (key: string) => JSON.stringify({ 'f:data': { '.': {}, [`f:${key}`]: {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } });

describe('parsedFieldsV1', () => {
  it('parses a text once and hands every object that carries it the same value', () => {
    const text = fieldsOf('payload');
    const first = parsedFieldsV1(text);
    expect(first).toEqual(JSON.parse(text));
    expect(parsedFieldsV1(`${text}`)).toBe(first);
    expect(parsedFieldsV1(fieldsOf('other'))).not.toBe(first);
    expect(parsedFieldsV1(fieldsOf('other'))).toEqual(JSON.parse(fieldsOf('other')));
  });

  it('freezes a shared value all the way down, so writing to it throws instead of changing other objects', () => {
    const value = parsedFieldsV1(fieldsOf('frozen')) as Record<string, Record<string, object>>;
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value['f:data']!['.'])).toBe(true);
    expect(() => {
      value['f:data']!['f:added'] = {};
    }).toThrow(TypeError);
    expect(parsedFieldsV1(fieldsOf('frozen'))).toEqual(JSON.parse(fieldsOf('frozen')));
  });

  it('stays right past its bound of 1,024 texts, starting over rather than growing', () => {
    const texts = Array.from({ length: 3000 }, (_, i) => fieldsOf(`key-${i}`));
    for (const text of texts) expect(parsedFieldsV1(text)).toEqual(JSON.parse(text));
    const recent = parsedFieldsV1(texts.at(-1)!);
    expect(parsedFieldsV1(texts.at(-1)!)).toBe(recent);
    // The first texts were dropped when the map started over: parsed anew, still equal.
    expect(parsedFieldsV1(texts[0]!)).toEqual(JSON.parse(texts[0]!));
  });
});
