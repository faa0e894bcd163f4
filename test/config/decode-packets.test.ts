import { describe, expect, it } from 'vitest';
import { decodeText, diagnose, PRELUDE } from './helpers.ts';

const FOLDERS = ['reference/kb', 'reference/examples', 'missions/kb'];

describe('packets', () => {
  it('resolves paths from the declaring file, or from the root with @/', () => {
    const { config, diagnostics } = decodeText(
      'packet "kb" {\n  path        = "./reference/kb"\n  description = "Internal docs"\n}\npacket "examples" {\n  path = "@/reference/examples"\n}\n',
      {
        files: {
          'missions/m.hcl':
            'packet "local" {\n  path = "kb"\n}\npacket "up" {\n  path = "../reference/kb/"\n}\n',
        },
        folders: FOLDERS,
      },
    );
    expect(diagnostics).toEqual([]);
    expect(
      [...config.packets.values()].map((packet) => [packet.name, packet.path, packet.description]),
    ).toEqual([
      ['kb', 'reference/kb', 'Internal docs'],
      ['examples', 'reference/examples', undefined],
      ['local', 'missions/kb', undefined],
      ['up', 'reference/kb', undefined],
    ]);
  });

  it('gives a mission its packets and those its tasks name; a task keeps its own list', () => {
    const { config, diagnostics } = decodeText(
      `${PRELUDE}packet "kb" {\n  path = "reference/kb"\n}\npacket "examples" {\n  path = "reference/examples"\n}\nmission "m" {\n  commander {\n    model = models.openai.gpt_4o\n  }\n  agents  = [agents.writer]\n  packets = [packets.kb]\n  task "draft" {\n    objective = "x"\n    packets   = ["examples", packets.kb]\n  }\n  task "plain" {\n    objective = "y"\n  }\n}\n`,
      { folders: FOLDERS },
    );
    expect(diagnostics).toEqual([]);
    const mission = config.missions.get('m');
    expect(mission?.packets).toEqual(['kb', 'examples']);
    expect(mission?.tasks.get('draft')?.packets).toEqual(['examples', 'kb']);
    expect(mission?.tasks.get('plain')?.packets).toEqual([]);
  });

  it.each([
    ['an absolute path', '/etc', 'error 2:10 path "/etc": absolute paths are not allowed'],
    [
      'a path leaving the root',
      '../outside',
      'error 2:10 path "../outside": escapes the project root: ../outside',
    ],
    ['the root itself', '@/', 'error 2:10 path "@/": resolves to the project root itself: .'],
    ['a missing folder', 'nope', 'error 2:10 path "nope": folder not found: nope'],
    ['an empty path', '', 'error 2:10 path "": the path is empty'],
  ])('refuses %s at the path', (_name, path, expected) => {
    expect(
      diagnose(`packet "p" {\n  path = ${JSON.stringify(path)}\n}\n`, { folders: FOLDERS }),
    ).toEqual([expected]);
  });

  it('reports a missing path, unknown attributes, duplicates and unknown packet names', () => {
    expect(
      diagnose(
        `${PRELUDE}packet "p" {\n  descripton = "x"\n}\npacket "kb" {\n  path = "reference/kb"\n}\npacket "kb" {\n  path = "reference/kb"\n}\nmission "m" {\n  commander {\n    model = models.openai.gpt_4o\n  }\n  agents  = [agents.writer]\n  packets = [packets.kbb]\n  task "t" {\n    objective = "x"\n    packets   = [packets.nothing]\n  }\n}\n`,
        { folders: FOLDERS },
      ),
    ).toEqual([
      'error 14:1 missing required attribute "path"',
      'error 15:3 unknown attribute "descripton" (did you mean "description"?)',
      'error 20:8 duplicate packet "kb"',
      'error 28:14 unknown packet "kbb" in packets (did you mean "kb"?)',
      'error 31:18 unknown packet "nothing" in packets',
    ]);
  });

  it('leaves out .hcl files inside a packet folder, their errors and packets declared there', () => {
    const { config, diagnostics } = decodeText('packet "kb" {\n  path = "kb"\n}\n', {
      files: {
        'kb/stray.hcl': 'model "ghost" { provider = "openai" api_key = "x" }\n',
        'kb/inner/more.hcl': 'packet "inner" {\n  path = "@/elsewhere"\n}\n',
      },
      folders: ['kb', 'kb/inner', 'elsewhere'],
    });
    expect(diagnostics).toEqual([]);
    expect([...config.packets.keys()]).toEqual(['kb']);
    expect(config.files).toEqual(['main.hcl']);
  });
});
