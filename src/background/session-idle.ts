// The idle lock's setting and alarm: how long an unlocked session may sit unused (stored in
// storage.local, not a secret) and the alarm that has the Session check it (Session.checkIdle).
// Apart from session.ts, which keeps the session itself.
import { ValidationError } from '../core/errors.js';
import { MAX_IDLE_LOCK_MINUTES, MIN_IDLE_LOCK_MINUTES } from '../shared/validate-fields.js';
import type { StorageArea } from './storage.js';

/** In storage.local: the idle timeout in minutes, or 'never'. Not a secret. */
export const IDLE_SETTING_KEY = 'xpc.settings.idleLock';
export const DEFAULT_IDLE_MINUTES = 15;
export const IDLE_ALARM_NAME = 'xpc-idle-lock';
export const IDLE_ALARM_PERIOD_MINUTES = 1;
export const NEVER_LOCK_WARNING =
  'The wallet will stay unlocked until you lock it or restart the browser. Anyone who can use this browser profile meanwhile can spend your funds.';

export type IdleTimeout = number | 'never';

export interface IdleTimeoutSetting {
  timeout: IdleTimeout;
  /** Present when the UI must show it (for 'never'). */
  warning?: string;
}

// ---- the idle alarm ----

/** The part of `browser.alarms` the idle lock needs. */
export interface AlarmsApi {
  get(name: string): Promise<unknown>;
  create(name: string, info: { delayInMinutes?: number; periodInMinutes?: number }): Promise<void> | void;
}

/**
 * Makes sure the periodic idle-check alarm exists; call on every background start. An existing
 * alarm is kept rather than re-created, since re-creating it on each wake-up would postpone it
 * forever while the worker keeps waking more often than once a minute.
 */
export async function scheduleIdleAlarm(alarms: AlarmsApi): Promise<void> {
  if ((await alarms.get(IDLE_ALARM_NAME)) !== undefined) return;
  await alarms.create(IDLE_ALARM_NAME, {
    delayInMinutes: IDLE_ALARM_PERIOD_MINUTES,
    periodInMinutes: IDLE_ALARM_PERIOD_MINUTES,
  });
}

function validIdleTimeout(value: unknown): value is IdleTimeout {
  return value === 'never' || (typeof value === 'number' && Number.isInteger(value) && value >= MIN_IDLE_LOCK_MINUTES && value <= MAX_IDLE_LOCK_MINUTES);
}

// ---- the setting ----

/** The configured idle timeout; the default when unset or unreadable. */
export async function readIdleTimeout(local: StorageArea): Promise<IdleTimeout> {
  const value = (await local.get([IDLE_SETTING_KEY]))[IDLE_SETTING_KEY];
  return validIdleTimeout(value) ? value : DEFAULT_IDLE_MINUTES;
}

/**
 * Sets the idle timeout: whole minutes in the range above, or 'never'. For 'never' the result
 * carries a `warning` the UI must show. Bad input throws ValidationError and changes nothing.
 */
export async function writeIdleTimeout(local: StorageArea, timeout: IdleTimeout): Promise<IdleTimeoutSetting> {
  if (!validIdleTimeout(timeout)) {
    throw new ValidationError(`the idle timeout is whole minutes from ${MIN_IDLE_LOCK_MINUTES} to ${MAX_IDLE_LOCK_MINUTES}, or "never"`, 'idleTimeout');
  }
  await local.set({ [IDLE_SETTING_KEY]: timeout });
  return timeout === 'never' ? { timeout, warning: NEVER_LOCK_WARNING } : { timeout };
}
