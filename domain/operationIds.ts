// The operations Herald serves. The contract's `webhooks` are operations too (openapi-typescript lists them with
// the others), but a receiver serves those: each is what a delivery of one event type looks like.
import type { operations, webhooks } from '../generated/api.d.ts';

type Delivery = webhooks[keyof webhooks]['post'];

export type OperationId = { [K in keyof operations]: operations[K] extends Delivery ? never : K }[keyof operations];
