/**
 * Zod without code generation in the browser. Zod 4 probes `new Function('')` once to decide whether it
 * may compile fast parsers; under our Content-Security-Policy (no 'unsafe-eval') the
 * probe fails quietly but Chromium still reports a `securitypolicyviolation`. With `jitless` set before
 * zod loads, zod skips the probe and parses the interpreted way. Import this module first in main.tsx.
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> }
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true }
