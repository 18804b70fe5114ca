export async function backup(_args: string[]): Promise<number> { return 0; }
export async function restore(_args: string[]): Promise<number> { return 0; }
