// Every METHOD and path the app serves: the routes registered on its express router, and the operations of the
// session-only contract (auth.yaml), which its /auth layer dispatches by path template. Paths read `:name`.
import type { Express } from 'express';
import { loadAuthContract } from '../../runtime/contract.ts';

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  rawPath?: string;
}

function routesOf(stack: Layer[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      return paths.flatMap((path) =>
        Object.keys(layer.route!.methods).map((m) => `${m.toUpperCase()} ${prefix}${path}`),
      );
    }
    if (layer.handle?.stack)
      return routesOf(layer.handle.stack, prefix + (layer.rawPath === '/' ? '' : (layer.rawPath ?? '')));
    return [];
  });
}

/** The express routes as `METHOD /path`, express's own `:name` parameters kept. */
export function expressRoutes(app: Express): string[] {
  return routesOf((app as unknown as { router: { stack: Layer[] } }).router.stack);
}

/** The operations of auth.yaml as `METHOD /auth/path`, `{name}` written `:name`. */
export function authOperations(): string[] {
  return Object.entries(loadAuthContract().paths).flatMap(([path, item]) =>
    Object.keys(item as object)
      .filter((key) => ['get', 'put', 'post', 'patch', 'delete'].includes(key))
      .map((method) => `${method.toUpperCase()} /auth${path.replace(/\{(\w+)\}/g, ':$1')}`),
  );
}

/** Every route the app serves, each once. */
export function servedRoutes(app: Express): string[] {
  return [...new Set([...expressRoutes(app), ...authOperations()])];
}
