import { useId, useState } from 'react';
import { pathOf, type AnswerOf } from '../../api';
import { ErrorState, Loading } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { PhaseBadge, When } from './parts';
import { schemaFields } from './tool-registry-rules';
import { TryTool } from './try-tool';

const TOOLS_PATH = '/api/workspaces/{name}/toolregistries/{registry}/tools';
type RegistryTools = AnswerOf<typeof TOOLS_PATH, 'get'>;
export type RegistryTool = RegistryTools['tools'][number];

/**
 * A registry's tools as discovered just now by the dashboard: each one's description, input
 * schema, endpoint, handler and status, the handlers that could not be reached, and (for those who
 * may change the registry) a form to try each tool.
 */
export function RegistryToolList({
  workspace,
  registry,
  canTry,
}: {
  workspace: string;
  registry: string;
  canTry: boolean;
}) {
  const [fresh, setFresh] = useState(false);
  const { data, error, loading, reload } = useApi<RegistryTools>(
    pathOf(TOOLS_PATH, { name: workspace, registry }, { refresh: fresh ? true : undefined }),
  );
  const again = () => {
    if (fresh) reload();
    else setFresh(true);
  };
  const unreached = data?.handlers.filter((handler) => handler.state !== 'reached') ?? [];
  return (
    <div className="ws-tools">
      <div className="ws-section-head">
        <h4>Tools</h4>
        <button
          type="button"
          className="button small"
          onClick={again}
          disabled={loading}
          aria-label={`Discover the tools of ${registry} again`}
        >
          {loading && data !== undefined ? 'Discovering…' : 'Discover again'}
        </button>
      </div>
      {error !== undefined && (
        <ErrorState title="The tools could not be discovered" error={error} retry={reload} />
      )}
      {data === undefined ? (
        error === undefined && <Loading label={`Discovering the tools of ${registry}`} />
      ) : (
        <>
          {unreached.length > 0 && (
            <ul className="ws-handler-problems" aria-label={`Handlers of ${registry} not reached`}>
              {unreached.map((handler) => (
                <li key={handler.name} className="ws-error">
                  <strong>Handler {handler.name}</strong> ({handler.type}){' '}
                  {handler.state === 'failed' ? 'could not be reached' : 'is not run here'}:{' '}
                  {handler.error}
                </li>
              ))}
            </ul>
          )}
          {data.tools.length === 0 ? (
            <p className="muted">No tools discovered.</p>
          ) : (
            <ul className="ws-tool-list">
              {data.tools.map((tool) => (
                <li key={`${tool.handlerName}/${tool.name}`}>
                  <ToolCard tool={tool} workspace={workspace} registry={registry} canTry={canTry} />
                </li>
              ))}
            </ul>
          )}
          <p className="muted ws-small">
            Discovered <When value={data.discoveredAt} /> by the dashboard.
          </p>
        </>
      )}
    </div>
  );
}

function ToolCard({
  tool,
  workspace,
  registry,
  canTry,
}: {
  tool: RegistryTool;
  workspace: string;
  registry: string;
  canTry: boolean;
}) {
  const id = useId();
  return (
    <article className="ws-tool" aria-labelledby={`${id}-name`}>
      <div className="ws-item-head">
        <h5 id={`${id}-name`}>{tool.name}</h5>
        <PhaseBadge phase={tool.status} label={`Status: ${tool.status}`} />
      </div>
      {tool.description !== null && tool.description !== '' ? (
        <p className="ws-tool-description">{tool.description}</p>
      ) : (
        <p className="muted">No description.</p>
      )}
      <dl className="ws-tool-facts">
        <div>
          <dt>Handler</dt>
          <dd>{tool.handlerName}</dd>
        </div>
        <div>
          <dt>Endpoint</dt>
          <dd>{tool.endpoint === null ? '—' : <code>{tool.endpoint}</code>}</dd>
        </div>
      </dl>
      {tool.error !== null && <p className="ws-message ws-warn-text">{tool.error}</p>}
      {tool.inputSchema !== null && <InputSchema tool={tool.name} schema={tool.inputSchema} />}
      {canTry && tool.callable && tool.inputSchema !== null && (
        <TryTool
          workspace={workspace}
          registry={registry}
          tool={tool.name}
          schema={tool.inputSchema}
        />
      )}
    </article>
  );
}

/** The arguments a schema describes, as a table, and the schema itself folded. */
function InputSchema({ tool, schema }: { tool: string; schema: Record<string, unknown> }) {
  const fields = schemaFields(schema);
  return (
    <>
      <h6 className="ws-tool-sub">Arguments</h6>
      {fields.length === 0 ? (
        <p className="muted">No named arguments in its schema.</p>
      ) : (
        <div className="table-wrap">
          <table className="ws-stack">
            <caption className="ws-visually-hidden">Arguments of {tool}</caption>
            <thead>
              <tr>
                <th scope="col">Argument</th>
                <th scope="col">Type</th>
                <th scope="col">Required</th>
                <th scope="col">Description</th>
              </tr>
            </thead>
            <tbody>
              {fields.map((field) => (
                <tr key={field.name}>
                  <th scope="row">
                    <code>{field.name}</code>
                  </th>
                  <td data-label="Type">
                    {field.type}
                    {field.options.length > 0 &&
                      `: ${field.options.map((o) => JSON.stringify(o)).join(', ')}`}
                  </td>
                  <td data-label="Required">{field.required ? 'required' : 'optional'}</td>
                  <td data-label="Description" className="ws-message">
                    {field.description ?? '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <details className="ws-details">
        <summary>Input schema of {tool} as JSON</summary>
        <pre className="ws-pre">{JSON.stringify(schema, null, 2)}</pre>
      </details>
    </>
  );
}
