/**
 * The text of an agent's system prompt. Kept as data in the source tree (not a loose text
 * file) so the build ships it; `system-prompt.ts` fills the `{name}` placeholders
 * with fillTemplate, as the commander's prompt is filled. Sections appear in
 * this fixed order and hold no timestamps, so the prompt is a stable, cacheable prefix.
 */

/** The whole prompt: the personality, then the mission context sections that apply. */
export const AGENT_PROMPT_TEMPLATE = `{personality}

You work on one task at a time for a commander. Use your tools when they help; when you are done, reply with your answer as plain text and no tool call. Never make up facts you could not check.{sections}`;

/** Declared datasets, one entry per dataset. */
export const DATASETS_SECTION = `

## Datasets
Shared lists of items for this mission. Read them with dataset_sample and dataset_count; replace or extend them with set_dataset (items must match the schema).
{datasets}`;

/** One dataset: name, item count when the session started, description, item schema. */
export const DATASET_ENTRY = `- {name} ({count}){description}{schema}`;

/** Slots the file tools reach. */
export const FILES_SECTION = `

## Files
Pass one of these as \`slot\` to the file tools; paths are relative to the slot.
{slots}`;

/** Protected values the agent may use in tool arguments without ever seeing them. */
export const SECRETS_SECTION = `

## Secrets
Write \${secrets.NAME} in a tool argument to use a protected value; it is filled in just before the tool runs and never shown to you. Available: {secrets}.`;

/** The skills the agent may load, one `- NAME: DESCRIPTION` line each. */
export const SKILLS_SECTION = `

## Skills
Call load_skill with a skill's name when its description fits your work: the result holds the skill's instructions, and its tools are offered from your next turn.
{skills}`;

/**
 * Loaded skills whose load result is no longer in the conversation (pruning or compaction
 * dropped it): their instructions, so a loaded skill stays in force. Appended last.
 */
export const LOADED_SKILLS_SECTION = `

## Loaded skills
You loaded these skills earlier in this conversation; their tools are offered.

{instructions}`;
