// Report prints one line per check, "STATUS check: detail", in the same form
// as the Go clients, and remembers whether anything failed. Under strict, a
// SKIP is reported as a FAIL.
export class Report {
  constructor(strict) {
    this.strict = strict;
    this.failed = false;
  }

  pass(check, detail) {
    this.#add('PASS', check, detail);
  }

  fail(check, detail) {
    this.failed = true;
    this.#add('FAIL', check, detail);
  }

  skip(check, detail) {
    if (this.strict) {
      this.fail(check, `skipped under strict: ${detail}`);
      return;
    }
    this.#add('SKIP', check, detail);
  }

  info(detail) {
    console.log(`INFO ${oneLine(detail)}`);
  }

  #add(status, check, detail) {
    console.log(`${status} ${check}: ${oneLine(detail)}`);
  }
}

// strictFromEnv reports whether INTEROP_STRICT asks for strict mode.
export function strictFromEnv() {
  const v = process.env.INTEROP_STRICT ?? '';
  return v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

function oneLine(s) {
  return String(s).replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}
