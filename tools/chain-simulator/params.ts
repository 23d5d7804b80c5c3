/**
 * Reading a method's params as a node does: the configuration object, the commitment (processed,
 * confirmed, finalized; finalized by default), minContextSlot, and the `{context, value}` answer.
 */
import type { Chain, Commitment } from './chain.ts';
import { invalidParams, MIN_CONTEXT_SLOT_NOT_REACHED, RpcError } from './jsonrpc.ts';

export const API_VERSION = '2.2.0';

export type Config = Record<string, unknown>;

export function config(params: unknown[], index: number): Config {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParams('Invalid params: expected a configuration object');
  return value as Config;
}

export function commitmentOf(cfg: Config): Commitment | undefined {
  const value = cfg.commitment;
  if (value === undefined) return undefined;
  // Older names a node still accepts.
  if (value === 'recent') return 'processed';
  if (value === 'single' || value === 'singleGossip') return 'confirmed';
  if (value === 'max' || value === 'root') return 'finalized';
  if (value !== 'processed' && value !== 'confirmed' && value !== 'finalized') throw invalidParams(`Invalid params: unknown commitment ${String(value)}`);
  return value;
}

/** A method that reads history (getTransaction, getSignaturesForAddress) refuses `processed`. */
export function historyCommitment(cfg: Config): Commitment | undefined {
  const commitment = commitmentOf(cfg);
  if (commitment === 'processed') throw invalidParams('Method does not support commitment below `confirmed`');
  return commitment;
}

/** The slot a read answers at, after checking minContextSlot. */
export function contextSlot(chain: Chain, cfg: Config): number {
  const slot = chain.slotAt(commitmentOf(cfg));
  if (typeof cfg.minContextSlot === 'number' && cfg.minContextSlot > slot) {
    throw new RpcError(MIN_CONTEXT_SLOT_NOT_REACHED, 'Minimum context slot has not been reached', { contextSlot: slot });
  }
  return slot;
}

export const withContext = (slot: number, value: unknown) => ({ context: { apiVersion: API_VERSION, slot }, value });

export function stringParam(params: unknown[], index: number, what: string): string {
  const value = params[index];
  if (typeof value !== 'string') throw invalidParams(`Invalid params: expected ${what}`);
  return value;
}

export function numberParam(params: unknown[], index: number, what: string): number {
  const value = params[index];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw invalidParams(`Invalid params: expected ${what}`);
  return value;
}

export function arrayParam(params: unknown[], index: number, what: string, max: number): unknown[] {
  const value = params[index];
  if (!Array.isArray(value)) throw invalidParams(`Invalid params: expected ${what}`);
  if (value.length > max) throw invalidParams(`Too many inputs provided; max ${max}`);
  return value;
}
