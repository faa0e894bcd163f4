/** The terminal's size, following resizes. */
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** Columns and rows; streams that do not know their size get 100×30. */
export function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const sizeNow = () => ({ columns: stdout.columns || 100, rows: stdout.rows || 30 });
  const [size, setSize] = useState(sizeNow);
  useEffect(() => {
    const onResize = () => setSize(sizeNow());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
