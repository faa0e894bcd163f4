import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProject } from '../../src/config/index.ts';
import { secretValues } from '../../src/config/requirements.ts';
import { decodeText, diagnose, rows } from './helpers.ts';

/** The reference runtime's docs example of `mcp_host`, as files of a project. */
const REFERENCE_EXAMPLE = join(import.meta.dirname, '../fixtures/config/mcp-host');

describe('the mcp_host block', () => {
  it('loads the reference docs example with its secret from a variable, without a warning', async () => {
    const config = await loadProject(REFERENCE_EXAMPLE, {
      env: {},
      vars: { mcp_host_secret: 'host-secret-0042' },
    });
    expect(rows(config.warnings)).toEqual([]);
    expect(config.mcpHost).toEqual({
      enabled: true,
      port: 8090,
      secret: 'host-secret-0042',
      span: expect.objectContaining({ file: 'mcp_host.hcl' }),
    });
    expect(secretValues(config)).toContain('host-secret-0042');
  });

  it('leaves a secret variable with no value to serve, which keeps the host off', async () => {
    const config = await loadProject(REFERENCE_EXAMPLE, { env: {} });
    expect(config.mcpHost).toMatchObject({ enabled: true, unsetSecretVariable: 'mcp_host_secret' });
    expect(config.mcpHost?.secret).toBeUndefined();
  });

  it('defaults to off on port 8090 and takes a literal secret', () => {
    expect(decodeText('mcp_host {\n}\n').config.mcpHost).toEqual({
      enabled: false,
      port: 8090,
      span: expect.objectContaining({ start: expect.objectContaining({ line: 1, column: 1 }) }),
    });
    const literal = decodeText('mcp_host {\n  enabled = true\n  port = 9100\n  secret = "s"\n}\n');
    expect(literal.config.mcpHost).toMatchObject({ enabled: true, port: 9100, secret: 's' });
  });

  it('reports a bad port, a bad switch, an empty secret, a label and a second block', () => {
    expect(diagnose('mcp_host {\n  port = 80\n}\n')).toEqual([
      'error 2:10 port must be 1024 or more',
    ]);
    expect(diagnose('mcp_host {\n  port = 70000\n}\n')).toEqual([
      'error 2:10 port must be 65535 or less',
    ]);
    expect(diagnose('mcp_host {\n  enabled = "yes"\n}\n')).toEqual([
      'error 2:13 enabled must be true or false',
    ]);
    expect(diagnose('mcp_host {\n  secret = ""\n}\n')).toEqual([
      'error 2:12 secret must not be empty',
    ]);
    expect(diagnose('mcp_host "x" {\n}\n')).toEqual(['error 1:10 `mcp_host` block takes no label']);
    expect(diagnose('mcp_host {\n}\nmcp_host {\n}\n')).toEqual([
      'error 3:1 duplicate `mcp_host` block: only one is allowed here',
    ]);
    expect(diagnose('mcp_host {\n  prot = 9000\n}\n')).toEqual([
      'error 2:3 unknown attribute "prot" (did you mean "port"?)',
    ]);
  });
});
