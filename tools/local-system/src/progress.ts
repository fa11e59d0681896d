/**
 * Progress for a person watching `make local-up`: every line names what is being done or waited for, and when
 * nothing new is said for quietMs the reporter says what it is still waiting for and for how long, so a wait is
 * never a silent pause (a first run builds the control-plane binaries for minutes).
 */
export interface ProgressReporter {
  log(line: string): void;
  stop(): void;
}

export function progressReporter(write: (line: string) => void, options: { quietMs?: number } = {}): ProgressReporter {
  const quietMs = options.quietMs ?? 5_000;
  let phase = '';
  let phaseStarted = Date.now();
  let lastLine = Date.now();
  const timer = setInterval(() => {
    if (phase === '' || Date.now() - lastLine < quietMs) return;
    lastLine = Date.now();
    write(`  … still ${phase.replace(/…$/, '')} (${Math.round((Date.now() - phaseStarted) / 1000)} s)`);
  }, quietMs);
  timer.unref();
  return {
    log(line) {
      write(line);
      phase = line;
      phaseStarted = Date.now();
      lastLine = phaseStarted;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
