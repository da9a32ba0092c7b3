import { useState, type ReactNode } from 'react';
import { api } from '../../api';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { apiPath, errorSentence, isCode } from './errors';
import { ActionError, FocusHeading, StatusMessage, useAction, useReturnFocus } from './parts';
import type { WorkspaceDetails } from './types';

/** What an item's read-only view is given. */
export interface ItemViewProps<T> {
  item: T;
  allowed: boolean;
  /** Back from editing it: the focus returns to its Edit button. */
  focusEdit: boolean;
  onEdit: () => void;
  onDelete: () => void;
}

/** What an item's form is given; without `item` it creates one. */
export interface ItemFormProps<T> {
  workspace: string;
  item?: T;
  /** Names already in use, for a new item. */
  taken: string[];
  onSaved: (message: string) => void;
  onFailed: (error: unknown) => void;
  onCancel: () => void;
}

/** One kind of the workspace's objects that the tab lists and, where allowed, edits. */
export interface EditableKind<T extends { name: string }> {
  /** The API path segment: promptpacks, toolregistries. */
  path: string;
  /** Its items in a list answer. */
  itemsOf: (answer: Record<string, unknown>) => T[];
  id: string;
  title: string;
  /** "prompt pack", "tool registry". */
  noun: string;
  lede: ReactNode;
  /** What the empty state suggests to those allowed to create one. */
  createHint: string;
  /** What deleting one does, in the confirmation. */
  deleteWarning: string;
  View: (props: ItemViewProps<T>) => ReactNode;
  Form: (props: ItemFormProps<T>) => ReactNode;
}

/**
 * A tab of a workspace's objects of one kind: listed with loading, error and empty states; where
 * the user may, created, edited in place and deleted after a confirmation.
 */
export function EditableList<T extends { name: string }>({
  kind,
  workspace,
  allowed,
  reloadWorkspace,
}: {
  kind: EditableKind<T>;
  workspace: WorkspaceDetails;
  allowed: boolean;
  reloadWorkspace: () => void;
}) {
  const list = useApi<Record<string, unknown>>(`${apiPath(workspace.name, kind.path)}?limit=1000`);
  const [status, setStatus] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [closed, setClosed] = useState<string | null>(null);
  const removal = useAction();
  const opener = useReturnFocus<HTMLButtonElement>(creating);
  const items = list.data === undefined ? undefined : kind.itemsOf(list.data);
  const names = (items ?? []).map((item) => item.name);
  const { View, Form, noun } = kind;

  const saved = (message: string) => {
    setStatus(message);
    setClosed(editing);
    setEditing(null);
    setCreating(false);
    list.reload();
  };
  const failed = (error: unknown) => {
    if (isCode(error, 'workspace_suspended')) reloadWorkspace();
  };
  const remove = async () => {
    if (deleting === null) return;
    const name = deleting;
    const result = await removal.run(async () => {
      await api(apiPath(workspace.name, kind.path, name), { method: 'DELETE' });
      return '';
    });
    if (result.ok) {
      setDeleting(null);
      saved(`Deleted the ${noun} “${name}”.`);
    } else failed(result.error);
  };

  return (
    <section aria-labelledby={`${kind.id}-title`}>
      <div className="ws-section-head">
        <FocusHeading level={2} id={`${kind.id}-title`}>
          {kind.title}
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
            New {noun}
          </button>
        )}
      </div>
      <p className="muted ws-lede">{kind.lede}</p>
      <StatusMessage message={status} />
      {creating && (
        <Form
          workspace={workspace.name}
          taken={names}
          onSaved={saved}
          onFailed={failed}
          onCancel={() => setCreating(false)}
        />
      )}
      {list.error !== undefined && items === undefined ? (
        <ErrorState
          title={`The ${kind.title.toLowerCase()} could not be loaded`}
          error={errorSentence(list.error)}
          retry={list.reload}
        />
      ) : items === undefined ? (
        <Loading label={`Loading the ${kind.title.toLowerCase()}`} />
      ) : items.length === 0 ? (
        <Empty title={`No ${kind.title.toLowerCase()} yet`}>
          <p>{allowed ? kind.createHint : 'An editor or owner of the workspace can create one.'}</p>
        </Empty>
      ) : (
        <ul className="ws-items" aria-label={kind.title}>
          {items.map((item) => (
            <li key={item.name} className="card ws-item">
              {editing === item.name ? (
                <Form
                  workspace={workspace.name}
                  item={item}
                  taken={names}
                  onSaved={saved}
                  onFailed={failed}
                  onCancel={() => {
                    setClosed(item.name);
                    setEditing(null);
                  }}
                />
              ) : (
                <View
                  item={item}
                  allowed={allowed}
                  focusEdit={closed === item.name}
                  onEdit={() => {
                    setStatus(null);
                    setCreating(false);
                    setEditing(item.name);
                  }}
                  onDelete={() => {
                    setStatus(null);
                    removal.clear();
                    setDeleting(item.name);
                  }}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the ${noun} “${deleting ?? ''}”?`}
        confirmLabel={`Delete ${noun}`}
        danger
        busy={removal.busy}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      >
        <p>{kind.deleteWarning}</p>
        <ActionError error={removal.error} what={`the ${noun} “${deleting ?? ''}”`} />
      </ConfirmDialog>
    </section>
  );
}
