// The (status, code) pairs each handler can answer, read from the source with the TypeScript compiler:
// every `new ApiError(<status>, '<code>', …)` (or a subclass's `super(<status>, '<code>', …)`) reachable
// from the handler through the functions it calls, followed by symbol across modules. Calls through an
// interface (Services) have no body to follow; the request chain's own answers are added by the test.
import path from 'node:path';
import ts from 'typescript';

export interface ErrorAnswer {
  status: number;
  code: string;
}

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

function isOurs(node: ts.Node): boolean {
  const file = node.getSourceFile().fileName;
  return file.startsWith(ROOT) && !file.includes('/node_modules/');
}

function literalPair(args: readonly ts.Expression[] | undefined): ErrorAnswer | undefined {
  const [status, code] = args ?? [];
  if (!status || !code || !ts.isNumericLiteral(status) || !ts.isStringLiteral(code)) return undefined;
  return { status: Number(status.text), code: code.text };
}

/** The body to walk for a called symbol's declaration: a function's, or a class's constructor. */
function bodyOf(decl: ts.Declaration): ts.Node | undefined {
  if (ts.isFunctionLike(decl)) return (decl as ts.FunctionLikeDeclaration).body;
  if ((ts.isVariableDeclaration(decl) || ts.isPropertyAssignment(decl)) && decl.initializer) return decl.initializer;
  if (ts.isShorthandPropertyAssignment(decl)) return undefined;
  if (ts.isClassDeclaration(decl)) return decl;
  return undefined;
}

/** Handler name (an operationId) -> the error answers it can produce. */
export function handlerErrors(): Map<string, ErrorAnswer[]> {
  const program = ts.createProgram([path.join(ROOT, 'handlers/index.ts')], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    noEmit: true,
    strict: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const memo = new Map<ts.Node, Map<string, ErrorAnswer>>();

  function declarationsOf(expr: ts.Node): ts.Declaration[] {
    let symbol = checker.getSymbolAtLocation(expr);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return (symbol?.declarations ?? []).filter(isOurs);
  }

  function collect(root: ts.Node): Map<string, ErrorAnswer> {
    const known = memo.get(root);
    if (known) return known;
    const found = new Map<string, ErrorAnswer>();
    memo.set(root, found); // a cycle stops here; its answers arrive through the first visit
    const add = (answer: ErrorAnswer | undefined) => answer && found.set(`${answer.status} ${answer.code}`, answer);
    const follow = (expr: ts.Node) => {
      for (const decl of declarationsOf(expr)) {
        const body = bodyOf(decl);
        if (body) for (const answer of collect(body).values()) add(answer);
      }
    };
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node)) {
        if (ts.isIdentifier(node.expression) && node.expression.text === 'ApiError') add(literalPair(node.arguments));
        else follow(node.expression);
      } else if (ts.isCallExpression(node)) {
        if (node.expression.kind === ts.SyntaxKind.SuperKeyword) add(literalPair(node.arguments));
        else follow(node.expression);
      }
      ts.forEachChild(node, visit);
    };
    visit(root);
    return found;
  }

  const result = new Map<string, ErrorAnswer[]>();
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(path.join(ROOT, 'handlers/'))) continue;
    for (const statement of file.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const decl of statement.declarationList.declarations) {
        const type = decl.type;
        const isHandler = type && ts.isTypeReferenceNode(type) && type.typeName.getText() === 'Handler';
        if (!isHandler || !decl.initializer) continue;
        const operationId = ts.isIdentifier(decl.name) ? decl.name.text : '';
        result.set(operationId, [...collect(decl.initializer).values()]);
      }
    }
  }
  return result;
}
