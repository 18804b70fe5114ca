// The plan table of the service specification, in one place. Sizes use binary units (1 GB = 2^30 bytes).

export type PlanName = 'free' | 'creator' | 'studio' | 'agency' | 'owner';

export interface Plan {
  name: PlanName;
  priceUsd: { month: number; year: number } | null;
  accounts: number;
  postsPerMonth: number;
  storageBytes: number;
  maxFileBytes: number;
  members: number;
  /** REST API access (Free has none). */
  api: boolean;
  /** MCP: 'read' shows only the read tools. */
  mcp: 'read' | 'full';
  groups: boolean;
  webhooks: boolean;
}

const GB = 1024 ** 3;
const MB = 1024 ** 2;

export const PLANS: Record<PlanName, Plan> = {
  free: {
    name: 'free',
    priceUsd: { month: 0, year: 0 },
    accounts: 2,
    postsPerMonth: 20,
    storageBytes: 2 * GB,
    maxFileBytes: 500 * MB,
    members: 1,
    api: false,
    mcp: 'read',
    groups: false,
    webhooks: false,
  },
  creator: {
    name: 'creator',
    priceUsd: { month: 12, year: 115 },
    accounts: 6,
    postsPerMonth: 200,
    storageBytes: 15 * GB,
    maxFileBytes: 2 * GB,
    members: 1,
    api: true,
    mcp: 'full',
    groups: true,
    webhooks: false,
  },
  studio: {
    name: 'studio',
    priceUsd: { month: 29, year: 278 },
    accounts: 20,
    postsPerMonth: 600,
    storageBytes: 50 * GB,
    maxFileBytes: 4 * GB,
    members: 3,
    api: true,
    mcp: 'full',
    groups: true,
    webhooks: true,
  },
  agency: {
    name: 'agency',
    priceUsd: { month: 59, year: 566 },
    accounts: 50,
    postsPerMonth: 2000,
    storageBytes: 150 * GB,
    maxFileBytes: 4 * GB,
    members: 10,
    api: true,
    mcp: 'full',
    groups: true,
    webhooks: true,
  },
  // Internal, never sold: the operator's own workspace.
  owner: {
    name: 'owner',
    priceUsd: null,
    accounts: 1000,
    postsPerMonth: 100_000,
    storageBytes: 10_000 * GB,
    maxFileBytes: 4 * GB,
    members: 100,
    api: true,
    mcp: 'full',
    groups: true,
    webhooks: true,
  },
};

export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

export function isPlanName(value: string): value is PlanName {
  return Object.hasOwn(PLANS, value);
}

export function planOf(name: string): Plan {
  if (!isPlanName(name)) throw new Error(`unknown plan ${name}`);
  return PLANS[name];
}

/** The plan names a person can buy, in upgrade order. */
export function nextPlanWith(current: PlanName, allows: (plan: Plan) => boolean): PlanName | undefined {
  const sold: PlanName[] = ['free', 'creator', 'studio', 'agency'];
  return sold.slice(sold.indexOf(current) + 1).find((p) => allows(PLANS[p]));
}
