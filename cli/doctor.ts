export async function doctor(_args: string[]): Promise<number> { return 0; }
