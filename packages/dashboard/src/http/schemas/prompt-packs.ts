import { Type } from 'typebox';
import { WorkspaceParam } from './workspaces.js';
import { named, Nullable, ObjectName } from './common.js';

export const PackName = Type.Object({
  name: WorkspaceParam,
  pack: ObjectName('The prompt pack (PromptPack) name.'),
});

const Prompt = Type.Object({ name: Type.String(), content: Type.String() });

export const PromptPack = Type.Object(
  {
    name: Type.String(),
    description: Nullable(Type.String()),
    systemPrompt: Type.String(),
    prompts: Type.Array(Prompt),
    createdAt: Nullable(Type.String({ format: 'date-time' })),
  },
  named('PromptPack'),
);

export const PromptPackSpec = Type.Object(
  {
    systemPrompt: Type.String(),
    description: Type.Optional(Nullable(Type.String())),
    prompts: Type.Optional(Type.Array(Prompt)),
  },
  { additionalProperties: false, ...named('PromptPackSpec') },
);
