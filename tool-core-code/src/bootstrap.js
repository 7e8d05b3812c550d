// Runs once per program, before the model's code, in a fresh engine. It receives the host's
// two native functions and returns the program's promise and the function the host settles
// calls with. Everything it uses is captured here, before the model's code runs, so what
// that code does to globals and prototypes changes only its own view.
(function (hostCall, hostLog, names, source) {
  'use strict';
  const P = Promise;
  const Err = Error;
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const Str = String;
  const create = Object.create;
  const define = Object.defineProperty;
  const freeze = Object.freeze;
  const ownProperty = Reflect.getOwnPropertyDescriptor;
  const pending = create(null);
  // Shared memory has no use in a single program, and `Atomics.wait` blocks where no
  // interrupt check runs (QuickJS refuses it on this thread today; removing both keeps it
  // so whatever the engine's defaults become).
  delete globalThis.Atomics;
  delete globalThis.SharedArrayBuffer;

  const invoke = (name, args) =>
    new P((resolve, reject) => {
      // A refused call (arguments that are no object, the call limit) throws here, which
      // rejects this call's promise.
      const id = hostCall(name, args);
      pending[id] = [resolve, reject, name];
    });

  const target = create(null);
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    define(target, name, { value: (args) => invoke(name, args), enumerable: true });
  }
  freeze(target);
  // Any other name is still a call, so a tool the program may not call, or a typo, answers
  // with the registry's own error (PERMISSION_DENIED, NOT_FOUND with a suggestion) rather
  // than "is not a function".
  const tools = new Proxy(target, freeze({
    __proto__: null,
    get(t, key) {
      if (typeof key !== 'string' || key === 'then') return undefined;
      const own = ownProperty(t, key);
      if (own !== undefined) return own.value;
      return (args) => invoke(key, args);
    },
    set() { return false; },
    defineProperty() { return false; },
    deleteProperty() { return false; },
    setPrototypeOf() { return false; },
  }));
  define(globalThis, 'tools', { value: tools, enumerable: true });

  const show = (value) => {
    try {
      if (typeof value === 'string') return value;
      if (value instanceof Err) return Str(value.name) + ': ' + Str(value.message);
      const text = stringify(value);
      return text === undefined ? Str(value) : text;
    } catch (e) {
      return '[value that cannot be shown]';
    }
  };
  const log = (...values) => {
    let line = '';
    for (let i = 0; i < values.length; i++) {
      if (i > 0) line += ' ';
      line += show(values[i]);
    }
    hostLog(line);
  };
  define(globalThis, 'console', {
    value: freeze({ log, info: log, warn: log, error: log, debug: log }),
  });

  const settle = (id, ok, text, isJson, code) => {
    const entry = pending[id];
    if (entry === undefined) return;
    delete pending[id];
    if (ok) {
      entry[0](isJson ? parse(text) : text);
    } else {
      const error = new Err('tools.' + entry[2] + ' failed [' + code + ']: ' + text);
      error.code = code;
      error.tool = entry[2];
      entry[1](error);
    }
  };

  const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
  // The model's code is the body of an async function, parsed on its own: it cannot close
  // the function early or reach the names above.
  let main;
  try {
    main = AsyncFunction(source);
  } catch (e) {
    return [undefined, settle, e];
  }
  return [main(), settle];
})
