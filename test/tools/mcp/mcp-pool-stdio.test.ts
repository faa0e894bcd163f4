/**
 * The run's MCP pool against the SDK's own server over stdio: tools listed in the server's
 * order under `mcp_<server>_<tool>` names, results mapped (text, structured content, images,
 * errors), the environment merged, unknown tools and failed starts reported, a crash mid-call
 * answered with an error and a restart, and no child left after close.
 */
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpReferenceError } from '../../../src/tools/mcp/index.ts';
import { PNG_1X1_BASE64 } from '../../fixtures/mcp/test-tools.mjs';
import { cleanUp, openPool, pidsIn, processAlive, stdioSpec } from './mcp-harness.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

afterEach(cleanUp);

const signal = new AbortController().signal;

describe('MCP servers over stdio', () => {
  it('offers every tool in the server order, named mcp_<server>_<tool>, with the server schema', async () => {
    const pool = await openPool([stdioSpec('local')]);
    const tools = await pool.toolsFor([{ server: 'local' }], signal);
    expect(tools.map((tool) => tool.definition.name)).toEqual([
      'mcp_local_echo',
      'mcp_local_add',
      'mcp_local_picture',
      'mcp_local_big',
      'mcp_local_fail',
      'mcp_local_env',
      'mcp_local_header',
      'mcp_local_wait',
      'mcp_local_crash',
    ]);
    const echo = tools[0]!.definition;
    expect(echo.description).toBe('Echo the text back');
    expect(echo.parameters).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
  });

  it('gives only the tools named, in reference order, each once', async () => {
    const pool = await openPool([stdioSpec('local')]);
    const tools = await pool.toolsFor(
      [
        { server: 'local', tool: 'fail' },
        { server: 'local', tool: 'echo' },
        { server: 'local', tool: 'fail' },
      ],
      signal,
    );
    expect(tools.map((tool) => tool.definition.name)).toEqual(['mcp_local_fail', 'mcp_local_echo']);
  });

  it("keeps no listener on the caller's signal after its calls (the SDK keeps one per request)", async () => {
    const pool = await openPool([stdioSpec('local')]);
    const caller = new AbortController().signal;
    const [echo] = await pool.toolsFor([{ server: 'local', tool: 'echo' }], caller);
    // An agent call's signal lives through all its tool calls: twelve of them here.
    for (let call = 0; call < 12; call++)
      await echo!.execute({ text: `${call}` }, { signal: caller });
    expect(getEventListeners(caller, 'abort')).toHaveLength(0);
  });

  it('maps text, structured content, images and errors to tool outcomes', async () => {
    const pool = await openPool([stdioSpec('local')]);
    const [echo, add, picture, fail] = await pool.toolsFor(
      ['echo', 'add', 'picture', 'fail'].map((tool) => ({ server: 'local', tool })),
      signal,
    );
    expect(await echo!.execute({ text: 'hello' }, { signal })).toEqual({
      content: 'hello',
      isError: false,
    });
    expect(await add!.execute({ a: 2, b: 3 }, { signal })).toEqual({
      content: '{"sum":5}',
      isError: false,
    });
    expect(await picture!.execute({}, { signal })).toEqual({
      content: [
        { type: 'text', text: 'a dot' },
        { type: 'image', mediaType: 'image/png', data: PNG_1X1_BASE64 },
      ],
      isError: false,
    });
    expect(await fail!.execute({}, { signal })).toEqual({
      content: '{"status":"error","error":"mcp \\"local\\" tool \\"fail\\" failed: disk full"}',
      isError: true,
    });
  });

  it('passes bad arguments to the server, whose answer is an error result', async () => {
    const pool = await openPool([stdioSpec('local')]);
    const [echo] = await pool.toolsFor([{ server: 'local', tool: 'echo' }], signal);
    const outcome = await echo!.execute({ text: 42 }, { signal });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('Input validation error');
  });

  it('runs the server with the env merged onto the parent environment', async () => {
    const pool = await openPool([stdioSpec('local', { MCP_TEST_GREETING: 'hi there' })]);
    const [env] = await pool.toolsFor([{ server: 'local', tool: 'env' }], signal);
    expect((await env!.execute({ name: 'MCP_TEST_GREETING' }, { signal })).content).toBe(
      'hi there',
    );
    expect((await env!.execute({ name: 'PATH' }, { signal })).content).toBe(process.env.PATH);
  });

  it('reports a tool the server lacks with a did-you-mean and the tools it offers', async () => {
    const pool = await openPool([stdioSpec('local')]);
    const check = pool.checkReferences(
      [
        { server: 'local', tool: 'echo' },
        { server: 'local', tool: 'ecko', where: 'main.hcl:12:14' },
      ],
      signal,
    );
    await expect(check).rejects.toThrow(McpReferenceError);
    await expect(check).rejects.toThrow(
      'main.hcl:12:14: mcp "local" has no tool "ecko" (did you mean "echo"?); it offers echo, add, picture, big, fail, env, header, wait, crash',
    );
  });

  it('reports a command that does not exist and a server that exits at start, with its stderr', async () => {
    const dir = await temporaryDirectory('mcp-fail');
    const pool = await openPool([
      { kind: 'command', name: 'missing', command: 'no-such-mcp-server', args: [], env: {} },
      stdioSpec('broken', { MCP_FAIL_AT_START: '1', MCP_PID_FILE: join(dir, 'pids') }),
    ]);
    await expect(
      pool.checkReferences(
        [
          { server: 'missing', tool: 'x' },
          { server: 'broken', tool: 'y' },
        ],
        signal,
      ),
    ).rejects.toThrow(
      'mcp "missing": command "no-such-mcp-server" was not found: give a program on PATH or a path to one\n' +
        'mcp "broken": the server exited before it was ready; it wrote: cannot open the database: permission denied',
    );
    // A failed start is final for the run: no second attempt.
    await expect(pool.toolsFor([{ server: 'broken' }], signal)).rejects.toThrow('mcp "broken"');
    expect(await pidsIn(join(dir, 'pids'))).toHaveLength(1);
  });

  it('answers a crash mid-call with an error result, restarts the server once and the next call works', async () => {
    const dir = await temporaryDirectory('mcp-crash');
    const pidFile = join(dir, 'pids');
    const pool = await openPool([stdioSpec('local', { MCP_PID_FILE: pidFile })]);
    const [crash, echo] = await pool.toolsFor(
      [
        { server: 'local', tool: 'crash' },
        { server: 'local', tool: 'echo' },
      ],
      signal,
    );
    const crashed = await crash!.execute({}, { signal });
    expect(crashed).toEqual({
      content: JSON.stringify({
        status: 'error',
        error:
          'mcp "local": the server stopped during the call (it wrote: fatal: the index is corrupt); ' +
          'the call may or may not have taken effect. The server is restarted for the next call.',
      }),
      isError: true,
    });
    const [first] = await pidsIn(pidFile);
    expect(await processAlive(first!)).toBe(false);
    expect(await echo!.execute({ text: 'again' }, { signal })).toEqual({
      content: 'again',
      isError: false,
    });
    const pids = await pidsIn(pidFile);
    expect(pids).toHaveLength(2);
    expect(await pool.pid('local')).toBe(pids[1]);
  });

  it('leaves no server process once closed', async () => {
    const pool = await openPool([stdioSpec('local')]);
    await pool.toolsFor([{ server: 'local' }], signal);
    const pid = await pool.pid('local');
    expect(await processAlive(pid!)).toBe(true);
    await pool.close();
    expect(await processAlive(pid!)).toBe(false);
  });
});
