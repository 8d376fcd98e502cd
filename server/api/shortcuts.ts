import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, Page } from '../../shared/schemas/common.ts'
import { Shortcut, ShortcutCreate } from '../../shared/schemas/shortcut.ts'
import { actorOf } from './http.ts'
import { message, pickLang } from '../lib/messages.ts'

const InstallationParams = z.object({ installationId: Id })
const ShortcutParams = z.object({ installationId: Id, shortcutId: Id })
/** A shortcut with SPEC §8 "shortcut added" (or, for a path pinned before, the same shortcut renamed). */
const ShortcutSaved = Shortcut.extend({ detail: z.string() })
const Removed = z.object({ detail: z.string() })

/** Shortcuts (SPEC §7): list, create, GET and DELETE /{id}; the caller's own, per installation. */
export function shortcutRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const base = '/cockpit/installations/:installationId/shortcuts'
  app.get(`${base}/`, { schema: { summary: "The caller's shortcuts in the installation", params: InstallationParams, response: { 200: Page(Shortcut) } } }, async (req) =>
    domain.shortcuts.list(await actorOf(domain, req), req.params.installationId),
  )
  app.post(`${base}/`, { schema: { summary: 'Pin an app path (the same path again renames it)', params: InstallationParams, body: ShortcutCreate, response: { 200: ShortcutSaved, 201: ShortcutSaved } } }, async (req, reply) => {
    const { shortcut, created } = await domain.shortcuts.create(await actorOf(domain, req), req.params.installationId, req.body)
    return reply.code(created ? 201 : 200).send({ ...shortcut, detail: message(created ? 'shortcutAdded' : 'dataSaved', pickLang(req.headers['accept-language'])) })
  })
  app.get(`${base}/:shortcutId/`, { schema: { summary: 'One of the caller’s shortcuts', params: ShortcutParams, response: { 200: Shortcut } } }, async (req) =>
    domain.shortcuts.get(await actorOf(domain, req), req.params.installationId, req.params.shortcutId),
  )
  app.delete(`${base}/:shortcutId/`, { schema: { summary: 'Remove one of the caller’s shortcuts', params: ShortcutParams, response: { 200: Removed } } }, async (req) => {
    await domain.shortcuts.remove(await actorOf(domain, req), req.params.installationId, req.params.shortcutId)
    return { detail: message('shortcutRemoved', pickLang(req.headers['accept-language'])) }
  })
}
