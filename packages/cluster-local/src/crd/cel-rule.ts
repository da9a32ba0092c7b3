import { isCelError, parse, plan, type CelInput, type CelResult } from '@bufbuild/cel';
import type { FieldError } from '../contracts.js';
import { KUBERNETES_CEL } from './cel-library.js';
import { duplicate, forbidden, invalid, required } from './field-errors.js';
import { ruleFieldPath } from './field-path.js';
import type { ValidationRule } from './schema.js';

/**
 * One x-kubernetes-validations rule, parsed and planned once, checked against many values. What
 * happens on failure follows Kubernetes' CEL validator: the rule's reason (FieldValueInvalid unless
 * it says otherwise), its messageExpression, message or "failed rule: <rule>", and its fieldPath.
 */

type Program = (bindings: Record<string, CelInput>) => CelResult;

export interface CompiledRule {
  readonly rule: ValidationRule;
  /** Uses oldSelf: only checked on update, where the old value is known. */
  readonly transition: boolean;
  /** Why the rule (or its messageExpression) does not compile, in Kubernetes' words. */
  readonly problem?: string;
  /** The failure of `self` (and `oldSelf`), or undefined when the rule holds. */
  check(
    self: CelInput,
    oldSelf: CelInput | undefined,
    path: string,
    type: string,
  ): FieldError | undefined;
}

interface Compiled {
  program?: Program;
  transition: boolean;
  problem?: string;
}

function compileExpression(source: string): Compiled {
  try {
    const parsed = parse(source);
    return { program: plan(KUBERNETES_CEL, parsed), transition: mentionsOldSelf(parsed.expr) };
  } catch (error) {
    return { transition: false, problem: `compilation failed: ${(error as Error).message}` };
  }
}

/** Whether the parsed expression reads the identifier oldSelf anywhere. */
function mentionsOldSelf(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return false;
  if (Array.isArray(node)) return node.some(mentionsOldSelf);
  const record = node as Record<string, unknown>;
  if (record.$typeName === 'cel.expr.Expr.Ident' && record.name === 'oldSelf') return true;
  return Object.values(record).some(mentionsOldSelf);
}

export function compileRule(rule: ValidationRule): CompiledRule {
  const source = typeof rule.rule === 'string' ? rule.rule : '';
  const ruleText = source.trim();
  const compiled = compileExpression(source);
  const message =
    typeof rule.messageExpression === 'string'
      ? compileExpression(rule.messageExpression)
      : undefined;
  const problem =
    compiled.problem ??
    (message?.problem === undefined ? undefined : `messageExpression ${message.problem}`);

  function failureText(bindings: Record<string, CelInput>): string {
    if (message?.program) {
      let text: CelResult | undefined;
      try {
        text = message.program(bindings);
      } catch {
        text = undefined;
      }
      // An unusable messageExpression falls back to the message, as in Kubernetes.
      if (typeof text === 'string' && text.trim() !== '' && !text.includes('\n')) return text;
    }
    const fixed = typeof rule.message === 'string' ? rule.message.trim() : '';
    return fixed === '' ? `failed rule: ${ruleText}` : fixed;
  }

  function failure(path: string, type: string, detail: string): FieldError {
    const field =
      typeof rule.fieldPath === 'string' && rule.fieldPath !== ''
        ? (ruleFieldPath(path, rule.fieldPath) ?? path)
        : path;
    switch (rule.reason) {
      case 'FieldValueForbidden':
        return forbidden(field, detail);
      case 'FieldValueRequired':
        return required(field, detail);
      case 'FieldValueDuplicate':
        return duplicate(field, type);
      default:
        return invalid(field, type, detail);
    }
  }

  return {
    rule,
    transition: compiled.transition,
    ...(problem === undefined ? {} : { problem }),
    check(self, oldSelf, path, type) {
      if (compiled.program === undefined) {
        return invalid(path, type, `rule compile error: ${compiled.problem}`);
      }
      const bindings: Record<string, CelInput> =
        oldSelf === undefined ? { self } : { self, oldSelf };
      let result: CelResult;
      try {
        result = compiled.program(bindings);
      } catch (error) {
        return invalid(path, type, `${(error as Error).message} evaluating rule: ${ruleText}`);
      }
      if (result === true) return undefined;
      if (result === false) return failure(path, type, failureText(bindings));
      if (isCelError(result)) {
        return invalid(path, type, `${result.message} evaluating rule: ${ruleText}`);
      }
      return invalid(path, type, 'rule compile error: cel expression must evaluate to a bool');
    },
  };
}
