import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { call, type AnswerOf } from '../../api';
import { ActionError, PhaseBadge, useAction } from './parts';
import {
  argumentsFromJson,
  argumentsOf,
  durationText,
  initialValue,
  resultText,
  schemaFields,
  type FieldValue,
  type SchemaField,
} from './tool-registry-rules';

const CALL_PATH = '/api/workspaces/{name}/toolregistries/{registry}/tools/{tool}/call';
type CallAnswer = AnswerOf<typeof CALL_PATH, 'post'>['result'];

/** A registry's tool and its input schema. */
interface ToolTarget {
  workspace: string;
  registry: string;
  tool: string;
  schema: Record<string, unknown>;
}

/**
 * "Try it", as the MCP Inspector has it: a form built from the tool's input schema, checked here
 * before it is sent, then what the tool answered and how long it took.
 */
export function TryTool({ workspace, registry, tool, schema }: ToolTarget) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="ws-try">
      <button
        type="button"
        className="button small"
        aria-expanded={open}
        aria-controls={`${id}-form`}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? `Close the trial of ${tool}` : `Try ${tool}`}
      </button>
      {open && (
        <div id={`${id}-form`}>
          <TryForm workspace={workspace} registry={registry} tool={tool} schema={schema} />
        </div>
      )}
    </div>
  );
}

function TryForm({ workspace, registry, tool, schema }: ToolTarget) {
  const id = useId();
  const fields = schemaFields(schema);
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const [values, setValues] = useState<Record<string, FieldValue>>(() =>
    Object.fromEntries(fields.map((f) => [f.name, initialValue(f, properties[f.name])])),
  );
  const [json, setJson] = useState('{}');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [result, setResult] = useState<CallAnswer | null>(null);
  const calling = useAction();
  const form = useRef<HTMLFormElement>(null);
  // The first field in error takes the focus once it is marked.
  useEffect(() => {
    if (Object.keys(problems).length === 0) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [problems]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let args: Record<string, unknown>;
    if (fields.length === 0) {
      const checked = argumentsFromJson(json);
      if (!checked.ok) {
        setProblems({ '': checked.problem });
        return;
      }
      args = checked.value;
    } else {
      const checked = argumentsOf(fields, values);
      if (!checked.ok) {
        setProblems(checked.problems);
        return;
      }
      args = checked.value;
    }
    setProblems({});
    setResult(null);
    await calling.run(async () => {
      const answer = await call('post', CALL_PATH, {
        params: { name: workspace, registry, tool },
        body: { arguments: args },
      });
      setResult(answer.result);
      return '';
    });
  };

  return (
    <form
      ref={form}
      className="ws-form ws-try-form"
      noValidate
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => void submit(e)}
    >
      <h6 id={`${id}-title`} className="ws-tool-sub">
        Try {tool}
      </h6>
      {fields.length === 0 ? (
        <div className="field">
          <label htmlFor={`${id}-json`}>Arguments (JSON object)</label>
          <textarea
            id={`${id}-json`}
            className="ws-json-small"
            rows={4}
            spellCheck={false}
            value={json}
            onChange={(e) => setJson(e.target.value)}
            aria-invalid={problems[''] !== undefined ? true : undefined}
            aria-describedby={problems[''] !== undefined ? `${id}-json-problem` : undefined}
          />
          {problems[''] !== undefined && (
            <span id={`${id}-json-problem`} className="ws-field-problem">
              {problems['']}
            </span>
          )}
        </div>
      ) : (
        fields.map((field) => (
          <FieldInput
            key={field.name}
            id={`${id}-${field.name}`}
            field={field}
            value={values[field.name] ?? ''}
            problem={problems[field.name]}
            onChange={(value) => setValues((last) => ({ ...last, [field.name]: value }))}
          />
        ))
      )}
      <div className="actions">
        <button type="submit" className="button primary" disabled={calling.busy}>
          {calling.busy ? 'Calling…' : `Call ${tool}`}
        </button>
      </div>
      <ActionError error={calling.error} what={`the tool “${tool}”`} />
      <div role="status" className="ws-try-result">
        {result !== null && <CallResult result={result} />}
      </div>
    </form>
  );
}

function CallResult({ result }: { result: CallAnswer }) {
  const shown = resultText(result.text);
  return (
    <>
      <p className="ws-header-facts">
        <strong>Result</strong>
        <PhaseBadge
          phase={result.isError ? 'Error' : 'Succeeded'}
          label={result.isError ? 'The tool reported an error' : 'Succeeded'}
        />
        <span>Took {durationText(result.durationMs)}</span>
        {shown.json && <span className="muted">JSON</span>}
      </p>
      <pre className="ws-pre" aria-label="What the tool answered">
        {shown.text === '' ? '(empty answer)' : shown.text}
      </pre>
    </>
  );
}

function FieldInput({
  id,
  field,
  value,
  problem,
  onChange,
}: {
  id: string;
  field: SchemaField;
  value: FieldValue;
  problem: string | undefined;
  onChange: (value: FieldValue) => void;
}) {
  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;
  const described = [hintId, problem === undefined ? null : problemId].filter(Boolean).join(' ');
  const common = {
    id,
    'aria-describedby': described,
    'aria-invalid': problem === undefined ? undefined : true,
    'aria-required': field.required || undefined,
  };
  const hint = (
    <span id={hintId} className="hint">
      {field.type}
      {field.kind === 'list' && ', one per line'}
      {field.kind === 'json' && ', as JSON'}
      {field.description !== null && ` — ${field.description}`}
    </span>
  );
  const label = (
    <>
      {field.name}
      {field.required && (
        <span className="ws-required" aria-hidden="true">
          {' '}
          *
        </span>
      )}
      {field.required && <span className="ws-visually-hidden"> (required)</span>}
    </>
  );
  const problemText = problem !== undefined && (
    <span id={problemId} className="ws-field-problem">
      {problem}
    </span>
  );

  if (field.kind === 'boolean') {
    return (
      <div className="field">
        <div className="ws-check">
          <input
            type="checkbox"
            checked={value === true}
            onChange={(e) => onChange(e.target.checked)}
            {...common}
          />
          <label htmlFor={id}>{label}</label>
        </div>
        {hint}
        {problemText}
      </div>
    );
  }
  const text = typeof value === 'string' ? value : '';
  let input;
  if (field.kind === 'enum') {
    input = (
      <select value={text} onChange={(e) => onChange(e.target.value)} {...common}>
        <option value="">{field.required ? 'Choose…' : '(not given)'}</option>
        {field.options.map((option) => (
          <option key={JSON.stringify(option)} value={JSON.stringify(option)}>
            {typeof option === 'string' ? option : JSON.stringify(option)}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'list' || field.kind === 'json') {
    input = (
      <textarea
        className="ws-json-small"
        rows={field.kind === 'list' ? 3 : 4}
        spellCheck={false}
        value={text}
        onChange={(e) => onChange(e.target.value)}
        {...common}
      />
    );
  } else {
    input = (
      <input
        type="text"
        inputMode={
          field.kind === 'integer' ? 'numeric' : field.kind === 'number' ? 'decimal' : undefined
        }
        autoComplete="off"
        spellCheck={field.kind === 'string'}
        value={text}
        onChange={(e) => onChange(e.target.value)}
        {...common}
      />
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {input}
      {hint}
      {problemText}
    </div>
  );
}
