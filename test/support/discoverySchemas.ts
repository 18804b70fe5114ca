// Request and answer bodies checked against a network's machine-readable description (YouTube's schemas, from
// Google's discovery document through its generated client: test/connectors/youtubeSchemas.json). Every property
// name must exist in its schema, at every depth, with the type the schema gives; a renamed field fails here.
export type Shape =
  | 'string'
  | 'number'
  | 'boolean'
  | 'any'
  | { ref: string }
  | { array: Shape }
  | { map: Shape }
  | { object: Record<string, Shape> };

export type Schemas = Record<string, Record<string, Shape>>;

/** Where `value` departs from `shape`, one line per departure (path: what is wrong); empty when it fits. */
export function shapeErrors(schemas: Schemas, value: unknown, shape: Shape, at = '$'): string[] {
  if (shape === 'any') return [];
  if (typeof shape === 'string')
    return typeof value === shape ? [] : [`${at}: ${JSON.stringify(value)} is not a ${shape}`];
  if ('array' in shape) {
    if (!Array.isArray(value)) return [`${at}: not an array`];
    return value.flatMap((item, i) => shapeErrors(schemas, item, shape.array, `${at}[${i}]`));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${at}: not an object`];
  const entries = Object.entries(value);
  if ('map' in shape) return entries.flatMap(([k, v]) => shapeErrors(schemas, v, shape.map, `${at}.${k}`));
  const properties = 'ref' in shape ? schemas[shape.ref] : shape.object;
  if (!properties) return [`${at}: no schema ${'ref' in shape ? shape.ref : ''}`];
  return entries.flatMap(([k, v]) => {
    const inner = properties[k];
    if (!inner) return [`${at}.${k}: no such property in ${'ref' in shape ? shape.ref : 'the schema'}`];
    return shapeErrors(schemas, v, inner, `${at}.${k}`);
  });
}
