// The handler contract: one function per operationId, typed from generated/api.d.ts. A handler returns
// its success answer; every failure is a thrown ApiError.
import type { operations } from '../generated/api.d.ts';
import type { Credential } from '../domain/credential.ts';
import type { OperationId } from '../domain/operationIds.ts';
import type { WorkspaceData } from '../db/workspaceData.ts';
import type { Services } from '../runtime/services.ts';

export type { OperationId };
/** The JSON a request or answer part carries; undefined for a part without JSON. */
export type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : undefined;
/** An operation's path, query or header parameters, as a contract's generated `operations` entry names them. */
export type PartOf<O, P extends string> = O extends { parameters: { [key in P]?: infer V } } ? NonNullable<V> : never;
/** An operation's JSON request body. */
export type BodyOf<O> = O extends { requestBody?: infer R } ? JsonOf<NonNullable<R>> : undefined;
/** An operation's success answers: each status with its JSON body (none for 204). */
export type ResultOf<O extends { responses: object }> = {
  [S in Extract<keyof O['responses'], 200 | 201 | 202 | 204>]: {
    status: S;
    headers?: Record<string, string>;
  } & (JsonOf<O['responses'][S]> extends undefined ? { body?: undefined } : { body: JsonOf<O['responses'][S]> });
}[Extract<keyof O['responses'], 200 | 201 | 202 | 204>];

type Part<K extends OperationId, P extends string> = PartOf<operations[K], P>;
export type RequestBody<K extends OperationId> = BodyOf<operations[K]>;
export type HandlerResult<K extends OperationId> = ResultOf<operations[K]>;

/** Which interface a call came through; posts record it as createdVia. */
export type Interface = 'api' | 'dashboard' | 'mcp';

export type AfterCommit = () => void | Promise<void>;

export interface HandlerContext<K extends OperationId> {
  cred: Credential;
  /** The caller's workspace: the only data access a handler has. */
  data: WorkspaceData;
  params: Part<K, 'path'>;
  query: Part<K, 'query'>;
  body: RequestBody<K>;
  via: Interface;
  services: Services;
  /**
   * Runs `work` once the request's writes are committed (with the answer of its `Idempotency-Key`, if it has one),
   * before the answer is sent; a failure there is a fault. Work outside the database that must follow the write
   * (deleting a file's bytes, a download that writes to the record) goes here.
   */
  afterCommit(work: AfterCommit): void;
}

export type Handler<K extends OperationId> = (ctx: HandlerContext<K>) => Promise<HandlerResult<K>>;
export type Handlers = { [K in OperationId]?: Handler<K> };
