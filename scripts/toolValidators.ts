// generated/toolValidators.ts: each MCP tool's argument validator as Ajv standalone code. Compiling the tools' schemas
// when a process starts took about a quarter of `herald serve`'s CPU until ready; compiled here, they load in ms.
import standaloneCode from 'ajv/dist/standalone/index.js';
import { toolAjv } from '../mcp/toolAjv.ts';
import type { OperationEntry } from './operationTable.ts';

export function renderToolValidators(table: readonly OperationEntry[], header: string): string {
  const ajv = toolAjv({ source: true, esm: true });
  const exports: Record<string, string> = {};
  for (const op of table.filter((entry) => entry.tool)) {
    ajv.addSchema(op.inputSchema as object, op.tool!);
    exports[op.tool!] = op.tool!;
  }
  // Ajv's ESM output still calls require() for its runtime helpers (formats, ucs2length), which ESM lacks.
  const code = standaloneCode.default(ajv, exports).replace(/^"use strict";/, '');
  const require = "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n";
  return `${header}// @ts-nocheck\n${require}${code}\n`;
}
