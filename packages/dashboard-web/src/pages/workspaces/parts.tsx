import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { formatTime, relativeTime } from '../../ui/format';
import { meterOf } from './budget-rules';
import { errorSentence } from './errors';
import type { Condition, WorkspaceRole } from './types';
import './workspaces.css';

/** Pieces the workspace pages share: badges, conditions, a meter, action outcomes, focus. */

const GOOD = new Set(['Ready', 'Running', 'Available', 'Active', 'Succeeded', 'True', 'Normal']);
const BAD = new Set(['Suspended', 'Failed', 'Error', 'Unavailable', 'Degraded', 'Warning']);

/** The tone of a phase or status: ok, warn or bad. */
export function toneOf(value: string): 'ok' | 'warn' | 'bad' {
  if (GOOD.has(value)) return 'ok';
  if (BAD.has(value)) return 'bad';
  return 'warn';
}

export function PhaseBadge({ phase, label }: { phase: string; label?: string }) {
  return <span className={`badge ${toneOf(phase)}`}>{label ?? phase}</span>;
}

export function RoleBadge({ role }: { role: WorkspaceRole }) {
  return <span className={`badge ws-role ws-role-${role}`}>{role}</span>;
}

/** A time as "3 minutes ago", the exact time on hover and for machines. */
export function When({ value }: { value: string | null | undefined }) {
  if (value === null || value === undefined || value === '') return <>—</>;
  return (
    <time dateTime={value} title={formatTime(value)}>
      {relativeTime(value)}
    </time>
  );
}

/** A Kubernetes condition list as a table: type, status, reason, message, when. */
export function ConditionList({
  conditions,
  caption,
  empty = 'No conditions reported yet.',
}: {
  conditions: Condition[];
  caption: string;
  empty?: string;
}) {
  if (conditions.length === 0) return <p className="muted">{empty}</p>;
  return (
    <div className="table-wrap">
      <table className="ws-conditions ws-stack">
        <caption className="ws-visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Reason</th>
            <th scope="col">Message</th>
            <th scope="col">When</th>
          </tr>
        </thead>
        <tbody>
          {conditions.map((c) => (
            <tr key={c.type}>
              <th scope="row">{c.type}</th>
              <td data-label="Status">
                <span className={`badge ${conditionTone(c)}`}>{c.status}</span>
              </td>
              <td data-label="Reason">{c.reason ?? '—'}</td>
              <td data-label="Message" className="ws-message">
                {c.message ?? '—'}
              </td>
              <td data-label="When">
                <When value={c.lastTransitionTime} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Most conditions are good when True; BudgetExceeded and the like are good when False. */
function conditionTone(c: Condition): 'ok' | 'warn' | 'bad' {
  const badWhenTrue = /Exceeded|Limited|Failed|Degraded|Paused/.test(c.type);
  if (c.status === 'Unknown') return 'warn';
  return (c.status === 'True') !== badWhenTrue ? 'ok' : 'bad';
}

/**
 * How much of a whole is used, as a bar: a `meter` for assistive technology with its value in
 * words, turning to a warning at 80 % and to an alert past 100 %.
 */
export function Meter({
  label,
  value,
  max,
  valueText,
}: {
  label: string;
  value: number;
  max: number;
  valueText: string;
}) {
  const { fill, tone } = meterOf(value, max);
  return (
    <div
      className={`ws-meter ${tone}`}
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.min(value, max)}
      aria-valuetext={valueText}
    >
      <div className="ws-meter-fill" style={{ width: `${fill * 100}%` }} />
    </div>
  );
}

/** An action's failure, next to the action, announced. */
export function ActionError({ error, what }: { error: unknown; what?: string }) {
  if (error === undefined || error === null) return null;
  return (
    <p className="ws-error" role="alert">
      {errorSentence(error, what)}
    </p>
  );
}

/** A live region for "saved" notices: present all along so the change is announced. */
export function StatusMessage({ message }: { message: string | null }) {
  return (
    <p className={message === null ? 'ws-status ws-status-empty' : 'ws-status'} role="status">
      {message}
    </p>
  );
}

export interface ActionState {
  busy: boolean;
  error: unknown;
  /** What was done, once it was. */
  done: string | null;
}

export type ActionResult = { ok: true } | { ok: false; error: unknown };

/**
 * Runs one action at a time: busy while it runs, then its error or what it did. The action returns
 * the sentence saying what was done.
 */
export function useAction() {
  const [state, setState] = useState<ActionState>({ busy: false, error: null, done: null });
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const run = useCallback(async (action: () => Promise<string>): Promise<ActionResult> => {
    setState({ busy: true, error: null, done: null });
    try {
      const done = await action();
      if (mounted.current) setState({ busy: false, error: null, done });
      return { ok: true };
    } catch (error) {
      if (mounted.current) setState({ busy: false, error, done: null });
      return { ok: false, error };
    }
  }, []);
  const fail = useCallback((error: unknown) => setState({ busy: false, error, done: null }), []);
  const clear = useCallback(() => setState({ busy: false, error: null, done: null }), []);
  return { ...state, run, fail, clear };
}

/**
 * The id of a heading that keeps the focus when a view inside it appears: the workspace's own
 * heading, focused on arrival, stays focused while its first tab loads.
 */
export const FocusYield = createContext<string | null>(null);

/**
 * A heading that takes the focus when it appears, so that after a navigation keyboard and screen
 * reader users start at the new view rather than on the link they followed.
 */
export function FocusHeading({
  level,
  children,
  className,
  id,
}: {
  level: 1 | 2;
  children: ReactNode;
  className?: string;
  id?: string;
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  const yieldTo = useContext(FocusYield);
  useEffect(() => {
    if (level === 2 && yieldTo !== null && document.activeElement?.id === yieldTo) return;
    ref.current?.focus();
  }, [level, yieldTo]);
  const Tag = level === 1 ? 'h1' : 'h2';
  return (
    <Tag
      ref={ref}
      id={id}
      tabIndex={-1}
      className={['ws-focus-heading', className].join(' ').trim()}
    >
      {children}
    </Tag>
  );
}

/** A ref for the control that should have the focus when its form opens. */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}

/**
 * A ref for the button that opens something (a form) and is hidden while it is open: when it
 * closes, the focus goes back to the button rather than being lost.
 */
export function useReturnFocus<T extends HTMLElement>(open: boolean) {
  const ref = useRef<T>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open) ref.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return ref;
}

/** Yes or no, for flags. */
export function yesNo(value: boolean | undefined): string {
  return value === true ? 'Yes' : 'No';
}
