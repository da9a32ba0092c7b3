/**
 * The shapes the dashboard API answers with, under the names the pages use: the component
 * schemas of its OpenAPI description (api-types.ts, generated from the routes' schemas).
 */
import type { components } from './api-types.js';

type Schemas = components['schemas'];

export type Role = Schemas['Role'];
export type WorkspaceRole = Schemas['WorkspaceRole'];
export type User = Schemas['User'];
export type AuthConfig = Schemas['AuthConfig'];
export type Condition = Schemas['Condition'];
export type WorkspaceSummary = Schemas['WorkspaceSummary'];
export type WorkspaceDetails = Schemas['WorkspaceDetails'];
export type Access = Schemas['Access'];
export type AccessChange = Schemas['AccessChange'];
export type AdminUser = Schemas['AdminUser'];
export type ApiKey = Schemas['ApiKey'];
export type Agent = Schemas['Agent'];
export type AgentDetails = Schemas['AgentDetails'];
export type Pod = Schemas['Pod'];
export type KubeEvent = Schemas['Event'];
export type PromptPack = Schemas['PromptPack'];
export type ToolRegistry = Schemas['ToolRegistry'];
export type ErrorEnvelope = Schemas['Error'];

/** The paging fields of every list answer. */
export interface Page {
  total: number;
  limit: number;
  offset: number;
}
