import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { OBJECT_NAME, OBJECT_NAME_HINT } from './agents';
import { apiPath, errorSentence, isCode } from './errors';
import { ActionError, FocusHeading, StatusMessage, useAction, useReturnFocus } from './parts';
import type { PromptPack, PromptPackList, PromptPackSpec } from './types';
import type { WorkspaceViewProps } from './workspace';

let lastKey = 0;
/** A key for a prompt row being edited, stable while rows are added and removed. */
const nextKey = () => ++lastKey;

/** The workspace's prompt packs: read them; where allowed, create, edit and delete them. */
export function PromptPacksTab({ workspace, reloadWorkspace }: WorkspaceViewProps) {
  const allowed = workspace.permissions.modifyPrompts;
  const packs = useApi<PromptPackList>(`${apiPath(workspace.name, 'promptpacks')}?limit=1000`);
  const [status, setStatus] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [closed, setClosed] = useState<string | null>(null);
  const removal = useAction();
  const opener = useReturnFocus<HTMLButtonElement>(creating);
  const names = (packs.data?.promptPacks ?? []).map((p) => p.name);

  const saved = (message: string) => {
    setStatus(message);
    setClosed(editing);
    setEditing(null);
    setCreating(false);
    packs.reload();
  };
  const failed = (error: unknown) => {
    if (isCode(error, 'workspace_suspended')) reloadWorkspace();
  };
  const remove = async () => {
    if (deleting === null) return;
    const name = deleting;
    const result = await removal.run(async () => {
      await api(apiPath(workspace.name, 'promptpacks', name), { method: 'DELETE' });
      return '';
    });
    if (result.ok) {
      setDeleting(null);
      saved(`Deleted the prompt pack “${name}”.`);
    } else failed(result.error);
  };

  return (
    <section aria-labelledby="packs-title">
      <div className="ws-section-head">
        <FocusHeading level={2} id="packs-title">
          Prompt packs
        </FocusHeading>
        {allowed && !creating && (
          <button
            ref={opener}
            type="button"
            className="button primary"
            onClick={() => {
              setStatus(null);
              setEditing(null);
              setCreating(true);
            }}
          >
            New prompt pack
          </button>
        )}
      </div>
      <p className="muted ws-lede">
        The system prompt and named prompts an agent follows. Agents name the pack they follow.
      </p>
      <StatusMessage message={status} />
      {creating && (
        <PromptPackForm
          workspace={workspace.name}
          taken={names}
          onSaved={saved}
          onFailed={failed}
          onCancel={() => setCreating(false)}
        />
      )}
      {packs.error !== undefined && packs.data === undefined ? (
        <ErrorState
          title="The prompt packs could not be loaded"
          error={errorSentence(packs.error)}
          retry={packs.reload}
        />
      ) : packs.data === undefined ? (
        <Loading label="Loading the prompt packs" />
      ) : packs.data.promptPacks.length === 0 ? (
        <Empty title="No prompt packs yet">
          <p>
            {allowed
              ? 'Create one with “New prompt pack”: agents need one to follow.'
              : 'An editor or owner of the workspace can create one.'}
          </p>
        </Empty>
      ) : (
        <ul className="ws-items" aria-label="Prompt packs">
          {packs.data.promptPacks.map((pack) => (
            <li key={pack.name} className="card ws-item">
              {editing === pack.name ? (
                <PromptPackForm
                  workspace={workspace.name}
                  pack={pack}
                  taken={names}
                  onSaved={saved}
                  onFailed={failed}
                  onCancel={() => {
                    setClosed(pack.name);
                    setEditing(null);
                  }}
                />
              ) : (
                <PromptPackView
                  pack={pack}
                  allowed={allowed}
                  focusEdit={closed === pack.name}
                  onEdit={() => {
                    setStatus(null);
                    setCreating(false);
                    setEditing(pack.name);
                  }}
                  onDelete={() => {
                    setStatus(null);
                    removal.clear();
                    setDeleting(pack.name);
                  }}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the prompt pack “${deleting ?? ''}”?`}
        confirmLabel="Delete prompt pack"
        danger
        busy={removal.busy}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      >
        <p>Agents that follow it keep running but cannot start new replicas with it.</p>
        <ActionError error={removal.error} what={`the prompt pack “${deleting ?? ''}”`} />
      </ConfirmDialog>
    </section>
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
    if (isNew && !OBJECT_NAME.test(name)) {
      save.fail(new Error(`The name is not a valid object name. ${OBJECT_NAME_HINT}`));
      return;
    }
    if (isNew && taken.includes(name)) {
      save.fail(
        new Error(`A prompt pack named “${name}” already exists: edit it, or choose another name.`),
      );
      return;
    }
    if (systemPrompt.trim() === '') {
      save.fail(new Error('The system prompt is required.'));
      return;
    }
    const promptNames = prompts.map((p) => p.name.trim());
    if (promptNames.some((n) => n === '')) {
      save.fail(new Error('Every prompt needs a name.'));
      return;
    }
    const twice = promptNames.find((n, i) => promptNames.indexOf(n) !== i);
    if (twice !== undefined) {
      save.fail(new Error(`Two prompts are named “${twice}”: prompt names must differ.`));
      return;
    }
    const body: PromptPackSpec = {
      systemPrompt,
      prompts: prompts.map((p) => ({ name: p.name.trim(), content: p.content })),
    };
    if (description.trim() !== '') body.description = description.trim();
    const result = await save.run(async () => {
      await api(apiPath(workspace, 'promptpacks', name), { method: 'PUT', body });
      return '';
    });
    if (result.ok) {
      onSaved(isNew ? `Created the prompt pack “${name}”.` : `Saved the prompt pack “${name}”.`);
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
