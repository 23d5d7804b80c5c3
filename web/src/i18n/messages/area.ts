/**
 * One page area's texts: pt-BR is the reference, and English must name exactly the same keys
 * (a key missing or left over in English is a type error).
 */
export interface AreaMessages<PtBR extends Record<string, string>> {
  ptBR: PtBR;
  en: Record<keyof PtBR, string>;
}
