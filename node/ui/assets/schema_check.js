// A check of a skill's input against its inputSchema before it is sent, so that obvious
// mistakes are shown at once. It covers the keywords forms need (type, required, properties,
// additionalProperties: false, enum, const, minLength/maxLength, minimum/maximum, items,
// minItems/maxItems); the node checks the whole schema again with its validator (valijson)
// on POST /api/skills/{id}/invoke, so what this leaves out is still caught there.

function typeOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(expected, value) {
  const actual = typeOf(value);
  return expected === actual || (expected === 'number' && actual === 'integer');
}

// [{pointer, reason}] for every problem found (empty: none).
export function checkAgainstSchema(schema, value, pointer = '', out = []) {
  if (schema === true || schema === undefined || schema === null) return out;
  if (schema === false) {
    out.push({pointer: pointer || '/', reason: 'no value is allowed here'});
    return out;
  }
  if (typeof schema !== 'object') return out;
  const where = pointer || '/';
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => typeMatches(t, value))) {
      out.push({pointer: where, reason: `must be ${types.join(' or ')}, not ${typeOf(value)}`});
      return out;
    }
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    out.push({pointer: where, reason: `must be one of ${JSON.stringify(schema.enum)}`});
  }
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) {
    out.push({pointer: where, reason: `must be ${JSON.stringify(schema.const)}`});
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) out.push({pointer: where, reason: `shorter than ${schema.minLength}`});
    if (schema.maxLength !== undefined && length > schema.maxLength) out.push({pointer: where, reason: `longer than ${schema.maxLength}`});
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) out.push({pointer: where, reason: `less than ${schema.minimum}`});
    if (schema.maximum !== undefined && value > schema.maximum) out.push({pointer: where, reason: `more than ${schema.maximum}`});
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) out.push({pointer: where, reason: `fewer than ${schema.minItems} items`});
    if (schema.maxItems !== undefined && value.length > schema.maxItems) out.push({pointer: where, reason: `more than ${schema.maxItems} items`});
    if (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) {
      value.forEach((item, i) => checkAgainstSchema(schema.items, item, `${pointer}/${i}`, out));
    }
  }
  if (typeOf(value) === 'object') {
    for (const name of schema.required || []) {
      if (!(name in value)) out.push({pointer: where, reason: `'${name}' is required`});
    }
    const properties = schema.properties || {};
    for (const [name, item] of Object.entries(value)) {
      const escaped = name.replace(/~/g, '~0').replace(/\//g, '~1');
      if (name in properties) checkAgainstSchema(properties[name], item, `${pointer}/${escaped}`, out);
      else if (schema.additionalProperties === false) out.push({pointer: `${pointer}/${escaped}`, reason: 'is not allowed'});
    }
  }
  return out;
}
