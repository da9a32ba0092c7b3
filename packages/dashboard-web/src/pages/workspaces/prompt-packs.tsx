import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { OBJECT_NAME_HINT } from './object-names';
import { apiPath } from './errors';
import { savedMessage } from './form-rules';
import { ActionError, useAction } from './parts';
import { promptPackSpecOf } from './prompt-pack-rules';
import type { PromptPack, PromptPackList } from './types';
import { EditableList, type EditableKind } from './editable-list';
import type { WorkspaceViewProps } from './workspace-view';

let lastKey = 0;
/** A key for a prompt row being edited, stable while rows are added and removed. */
const nextKey = () => ++lastKey;

const PROMPT_PACKS: EditableKind<PromptPack> = {
  path: 'promptpacks',
  itemsOf: (answer) => (answer as unknown as PromptPackList).promptPacks,
  id: 'packs',
  title: 'Prompt packs',
  noun: 'prompt pack',
  lede: 'The system prompt and named prompts an agent follows. Agents name the pack they follow.',
  createHint: 'Create one with “New prompt pack”: agents need one to follow.',
  deleteWarning: 'Agents that follow it keep running but cannot start new replicas with it.',
  View: ({ item, ...rest }) => <PromptPackView pack={item} {...rest} />,
  Form: ({ item, ...rest }) => <PromptPackForm {...rest} {...(item ? { pack: item } : {})} />,
};

/** The workspace's prompt packs: read them; where allowed, create, edit and delete them. */
export function PromptPacksTab({ workspace, reloadWorkspace }: WorkspaceViewProps) {
  return (
    <EditableList
      kind={PROMPT_PACKS}
      workspace={workspace}
      allowed={workspace.permissions.modifyPrompts}
      reloadWorkspace={reloadWorkspace}
    />
  );
}

function PromptPackView({
  pack,
  allowed,
  focusEdit,
  onEdit,
  onDelete,
}: {
  pack: PromptPack;
  allowed: boolean;
  /** Back from editing it: the focus returns to its Edit button. */
  focusEdit: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const edit = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusEdit) edit.current?.focus();
  }, [focusEdit]);
  return (
    <article aria-labelledby={`pack-${pack.name}`}>
      <div className="ws-item-head">
        <h3 id={`pack-${pack.name}`}>{pack.name}</h3>
        {allowed && (
          <div className="actions">
            <button
              ref={edit}
              type="button"
              className="button small"
              onClick={onEdit}
              aria-label={`Edit ${pack.name}`}
            >
              Edit
            </button>
            <button
              type="button"
              className="button small danger"
              onClick={onDelete}
              aria-label={`Delete ${pack.name}`}
            >
              Delete
            </button>
          </div>
        )}
      </div>
      {pack.description !== null && pack.description !== '' && <p>{pack.description}</p>}
      <h4>System prompt</h4>
      <pre className="ws-pre">{pack.systemPrompt}</pre>
      <h4>Prompts</h4>
      {pack.prompts.length === 0 ? (
        <p className="muted">No named prompts.</p>
      ) : (
        <dl className="ws-prompts">
          {pack.prompts.map((p) => (
            <div key={p.name} className="ws-prompt">
              <dt>{p.name}</dt>
              <dd>
                <pre className="ws-pre">{p.content}</pre>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </article>
  );
}

interface PromptRow {
  key: number;
  name: string;
  content: string;
}

/** Creates a prompt pack (no `pack`) or edits one: description, system prompt, prompts. */
function PromptPackForm({
  workspace,
  pack,
  taken,
  onSaved,
  onFailed,
  onCancel,
}: {
  workspace: string;
  pack?: PromptPack;
  taken: string[];
  onSaved: (message: string) => void;
  onFailed: (error: unknown) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [name, setName] = useState(pack?.name ?? '');
  const [description, setDescription] = useState(pack?.description ?? '');
  const [systemPrompt, setSystemPrompt] = useState(pack?.systemPrompt ?? '');
  const [prompts, setPrompts] = useState<PromptRow[]>(() =>
    (pack?.prompts ?? []).map((p) => ({ key: nextKey(), ...p })),
  );
  const save = useAction();
  const list = useRef<HTMLOListElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const descriptionInput = useRef<HTMLInputElement>(null);
  const isNew = pack === undefined;
  useEffect(() => {
    (isNew ? nameInput : descriptionInput).current?.focus();
  }, [isNew]);

  const change = (key: number, field: 'name' | 'content', value: string) =>
    setPrompts((rows) => rows.map((r) => (r.key === key ? { ...r, [field]: value } : r)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = promptPackSpecOf({ isNew, name, taken, description, systemPrompt, prompts });
    if (!checked.ok) {
      save.fail(new Error(checked.problem));
      return;
    }
    const body = checked.value;
    const result = await save.run(async () => {
      await api(apiPath(workspace, 'promptpacks', name), { method: 'PUT', body });
      return '';
    });
    if (result.ok) {
      onSaved(savedMessage(isNew, 'prompt pack', name));
    } else onFailed(result.error);
  };

  const title = isNew ? 'New prompt pack' : `Edit ${name}`;
  return (
    <form
      className={isNew ? 'card ws-form' : 'ws-form'}
      noValidate
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => void submit(e)}
    >
      <h3 id={`${id}-title`}>{title}</h3>
      {isNew && (
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            ref={nameInput}
            id={`${id}-name`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${id}-name-hint`}
          />
          <span id={`${id}-name-hint`} className="hint">
            {OBJECT_NAME_HINT}
          </span>
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-description`}>Description (optional)</label>
        <input
          ref={descriptionInput}
          id={`${id}-description`}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-system`}>System prompt</label>
        <textarea
          id={`${id}-system`}
          value={systemPrompt}
          rows={6}
          onChange={(e) => setSystemPrompt(e.target.value)}
        />
      </div>
      <fieldset className="ws-fieldset">
        <legend>Prompts</legend>
        {prompts.length === 0 && <p className="muted">No named prompts.</p>}
        <ol className="ws-prompt-rows" ref={list}>
          {prompts.map((row, i) => (
            <li key={row.key} className="ws-prompt-row">
              <div className="field">
                <label htmlFor={`${id}-p${row.key}-name`}>Name of prompt {i + 1}</label>
                <input
                  id={`${id}-p${row.key}-name`}
                  value={row.name}
                  onChange={(e) => change(row.key, 'name', e.target.value)}
                  autoComplete="off"
                />
              </div>
              <div className="field">
                <label htmlFor={`${id}-p${row.key}-content`}>Content of prompt {i + 1}</label>
                <textarea
                  id={`${id}-p${row.key}-content`}
                  value={row.content}
                  rows={3}
                  onChange={(e) => change(row.key, 'content', e.target.value)}
                />
              </div>
              <button
                type="button"
                className="button small danger"
                onClick={() => setPrompts((rows) => rows.filter((r) => r.key !== row.key))}
              >
                Remove prompt {i + 1}
              </button>
            </li>
          ))}
        </ol>
        <button
          type="button"
          className="button small"
          onClick={() => {
            setPrompts((rows) => [...rows, { key: nextKey(), name: '', content: '' }]);
            // Into the new row, once it is there.
            requestAnimationFrame(() => {
              const inputs = list.current?.querySelectorAll<HTMLInputElement>('input');
              inputs?.[inputs.length - 1]?.focus();
            });
          }}
        >
          Add prompt
        </button>
      </fieldset>
      <ActionError error={save.error} what={`the prompt pack “${name}”`} />
      <div className="actions">
        <button type="submit" className="button primary" disabled={save.busy}>
          {save.busy ? 'Saving…' : isNew ? 'Create prompt pack' : 'Save'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
