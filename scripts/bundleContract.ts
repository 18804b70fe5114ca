// The session-only contract (auth.yaml) names shared shapes of openapi.yaml by `./openapi.yaml#/components/…`.
// Bundling copies each named component (and what it names in turn) into the document itself, so the served
// auth.json, its types and the dispatcher's validator read one self-contained document.

type Json = unknown;
type Components = Record<string, Record<string, Json>>;
const EXTERNAL = /^\.\/openapi\.yaml#\/components\/(\w+)\/([\w.-]+)$/;
const LOCAL = /^#\/components\/(\w+)\/([\w.-]+)$/;

export function bundleContract(document: Record<string, Json>, shared: { components: Components }) {
  const out = structuredClone(document) as Record<string, Json> & { components: Components };
  const own = new Set(
    Object.entries(out.components).flatMap(([kind, all]) => Object.keys(all).map((n) => `${kind}/${n}`)),
  );
  const copied = new Set<string>();

  /** Copies a component of openapi.yaml under the same name, then what it refers to. */
  function copy(kind: string, name: string): void {
    const key = `${kind}/${name}`;
    if (copied.has(key)) return;
    if (own.has(key)) throw new Error(`auth.yaml's ${key} has the name of a component it takes from openapi.yaml`);
    const found = shared.components[kind]?.[name];
    if (found === undefined) throw new Error(`openapi.yaml has no components/${key}`);
    copied.add(key);
    const clone = structuredClone(found);
    out.components[kind] = { ...out.components[kind], [name]: clone };
    walk(clone, true);
  }

  function walk(node: Json, fromShared: boolean): void {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, fromShared);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const object = node as Record<string, Json>;
    const ref = object.$ref;
    if (typeof ref === 'string') {
      const external = EXTERNAL.exec(ref);
      const local = fromShared ? LOCAL.exec(ref) : null;
      const target = external ?? local;
      if (target) {
        copy(target[1]!, target[2]!);
        object.$ref = `#/components/${target[1]}/${target[2]}`;
      }
    }
    for (const [key, value] of Object.entries(object)) if (key !== '$ref') walk(value, fromShared);
  }

  walk(out, false);
  return out;
}
