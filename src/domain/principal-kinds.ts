/** The kinds of principal (who holds API keys and grants). */
export const PRINCIPAL_KINDS = ['AGENT', 'USER', 'SERVICE'] as const;
export type PrincipalKind = (typeof PRINCIPAL_KINDS)[number];
