import type { FormEvent } from 'react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { errorMessage } from '../../api/errors.ts'
import { Badge, Card, Outcome, useDocumentTitle } from '../../components/ui.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { SelectField, TextField } from '../../components/text-field.tsx'
import { createObject, deleteObject, fetchObjectTree, installationChanged, OBJECT_TYPES, provisioningKeys, updateObject, type ObjectNode, type ObjectType } from './api.ts'
import { defaultChildType, flattenTree, holdsSomething, subtreeIds, validateObject } from './validate.ts'
import { FormActions, ListState, useProvisioningForm } from './form.tsx'

type Editing = { mode: 'add'; parent: ObjectNode | null } | { mode: 'edit'; node: ObjectNode } | null

/**
 * Management → Buildings and flats (admins): the installation's object tree (SPEC §3 object hierarchy:
 * buildings, staircases, flats, common areas, garages) as nested lists. Each object can get a child,
 * be renamed, change its kind or move under another parent, and be deleted once it holds nothing (the
 * server says what it still holds, 409).
 */
export default function ObjectsPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('provisioning')
  const { t: tc } = useTranslation()
  useDocumentTitle(t('objects.title'))
  const queryClient = useQueryClient()
  const query = useQuery({ queryKey: provisioningKeys.objects(installation.id), queryFn: ({ signal }) => fetchObjectTree(installation.id, signal) })
  const roots = query.data ?? null
  const [editing, setEditing] = useState<Editing>(null)
  const [confirming, setConfirming] = useState<ObjectNode | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const listId = useId()

  const open = (next: Editing) => {
    setMessage(null)
    setProblem(null)
    setEditing(next)
  }

  async function remove(node: ObjectNode) {
    setBusy(true)
    setProblem(null)
    try {
      await deleteObject(installation.id, node.id)
      setMessage(t('objects.deleted', { name: node.description }))
      void installationChanged(queryClient, installation.id)
    } catch (err) {
      setProblem(errorMessage(err, tc))
    } finally {
      setConfirming(null)
      setBusy(false)
    }
  }

  const renderNodes = (nodes: ObjectNode[]) => (
    <ul className="space-y-2 border-l border-slate-200 pl-3 sm:pl-5">
      {nodes.map((n) => (
        <li key={n.id}>
          <ObjectRow node={n} onAdd={() => open({ mode: 'add', parent: n })} onEdit={() => open({ mode: 'edit', node: n })} onDelete={() => (setMessage(null), setConfirming(n))} />
          {editing && ((editing.mode === 'add' && editing.parent?.id === n.id) || (editing.mode === 'edit' && editing.node.id === n.id)) ? (
            <ObjectForm installationId={installation.id} editing={editing} roots={roots ?? []} onDone={(text) => (setEditing(null), text && setMessage(text))} />
          ) : null}
          {n.children?.length ? <div className="mt-2">{renderNodes(n.children)}</div> : null}
        </li>
      ))}
    </ul>
  )

  return (
    <div className="mx-auto max-w-4xl space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('objects.title')}</h1>
        <button type="button" className="btn-primary" aria-expanded={editing?.mode === 'add' && editing.parent === null} onClick={() => open({ mode: 'add', parent: null })}>
          {t('objects.addBuilding')}
        </button>
      </div>
      <p className="text-sm text-slate-600">{t('objects.intro')}</p>
      <Outcome message={message} problem={problem} />
      {editing?.mode === 'add' && editing.parent === null ? (
        <ObjectForm installationId={installation.id} editing={editing} roots={roots ?? []} onDone={(text) => (setEditing(null), text && setMessage(text))} />
      ) : null}
      <Card title={t('objects.tree')} titleId={listId}>
        <ListState ready={roots !== null} failed={query.isError && !query.isFetching ? query : undefined} empty={roots?.length === 0} emptyText={t('objects.empty')}>
          {() => <div className="-ml-3 sm:-ml-5">{renderNodes(roots!)}</div>}
        </ListState>
      </Card>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? t('objects.confirmDelete', { name: confirming.description }) : ''}
        confirmLabel={t('delete')}
        cancelLabel={t('cancel')}
        busy={busy}
        onConfirm={() => confirming && void remove(confirming)}
        onCancel={() => setConfirming(null)}
      >
        {confirming && holdsSomething(confirming) ? t('objects.notEmpty') : t('objects.deleteText')}
      </ConfirmDialog>
    </div>
  )
}

/** One object: its name, kind and what it holds, and its actions (named with the object for screen readers). */
function ObjectRow({ node, onAdd, onEdit, onDelete }: { node: ObjectNode; onAdd: () => void; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation('provisioning')
  const meters = node.electrical_meters.length + node.heating_meters.length + node.water_meters.length
  const stations = node.charging_stations.length
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <span className="font-medium text-slate-900">{node.description}</span>{' '}
        <Badge tone="gray">{t(`objectTypes.${node.object_type}`, { defaultValue: node.object_type })}</Badge>
        {meters || stations ? (
          <p className="mt-0.5 text-xs text-slate-500">
            {[meters ? t('objects.meterCount', { count: meters }) : null, stations ? t('objects.stationCount', { count: stations }) : null].filter(Boolean).join(' · ')}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn-secondary min-h-11 px-3" aria-label={t('objects.addInside', { name: node.description })} onClick={onAdd}>
          {t('objects.add')}
        </button>
        <button type="button" className="btn-secondary min-h-11 px-3" aria-label={t('objects.editNamed', { name: node.description })} onClick={onEdit}>
          {t('edit')}
        </button>
        <button type="button" className="btn-secondary min-h-11 px-3 text-red-700" aria-label={t('objects.deleteNamed', { name: node.description })} onClick={onDelete}>
          {t('delete')}
        </button>
      </div>
    </div>
  )
}

/**
 * Add a child (or a building at the top), or edit an object: description, kind and, when editing, its
 * parent (any object outside its own subtree, or none: a move; the server refuses a cycle, 422).
 */
function ObjectForm({ installationId, editing, roots, onDone }: { installationId: number; editing: NonNullable<Editing>; roots: ObjectNode[]; onDone: (message: string | null) => void }) {
  const { t } = useTranslation('provisioning')
  const queryClient = useQueryClient()
  const titleId = useId()
  const node = editing.mode === 'edit' ? editing.node : null
  const [description, setDescription] = useState(node?.description ?? '')
  const [type, setType] = useState<ObjectType>(
    node ? ((OBJECT_TYPES as readonly string[]).includes(node.object_type) ? (node.object_type as ObjectType) : 'building') : defaultChildType(editing.mode === 'add' ? (editing.parent?.object_type ?? null) : null),
  )
  const [parent, setParent] = useState(node ? String(node.parent_object_id ?? '') : '')
  const { failure, busy, msg, run } = useProvisioningForm()
  const excluded = node ? subtreeIds(node) : new Set<number>()
  const parents = flattenTree(roots).filter((o) => !excluded.has(o.id))
  const title =
    editing.mode === 'edit' ? t('objects.editTitle', { name: editing.node.description }) : editing.parent ? t('objects.addTitle', { name: editing.parent.description }) : t('objects.addBuilding')

  function submit(e: FormEvent) {
    e.preventDefault()
    // A cycle (422) or a parent gone meanwhile (404) name parent_object_id: shown under the field.
    void run(validateObject({ description }), async () => {
      if (node) {
        await updateObject(installationId, node.id, { description: description.trim(), object_type: type, parent_object_id: parent === '' ? null : Number(parent) })
      } else {
        await createObject(installationId, { description: description.trim(), object_type: type, parent_object_id: editing.mode === 'add' && editing.parent ? editing.parent.id : null })
      }
      await installationChanged(queryClient, installationId)
      onDone(node ? t('objects.saved', { name: description.trim() }) : t('objects.created', { name: description.trim() }))
    }, { namedFields: ['parent_object_id'], sayCheckFields: false })
  }

  return (
    <form noValidate onSubmit={submit} aria-labelledby={titleId} aria-busy={busy} className="mt-2 space-y-3 rounded-lg border border-brand-200 bg-brand-50/40 p-3">
      <h2 id={titleId} className="text-sm font-semibold text-slate-900">{title}</h2>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <TextField label={t('fields.description')} value={description} maxLength={100} error={msg('description')} onChange={(e) => setDescription(e.target.value)} autoFocus />
        <SelectField label={t('fields.objectType')} value={type} error={msg('object_type')} onChange={(e) => setType(e.target.value as ObjectType)}
          options={OBJECT_TYPES.map((k) => ({ value: k, label: t(`objectTypes.${k}`) }))} />
        {node ? (
          <SelectField label={t('fields.parent')} value={parent} error={msg('parent_object_id')} onChange={(e) => setParent(e.target.value)}
            options={[{ value: '', label: t('objects.noParent') }, ...parents.map((o) => ({ value: String(o.id), label: `${'\u2003'.repeat(o.depth)}${o.description}` }))]} />
        ) : null}
      </div>
      <FormActions failure={failure} busy={busy} onCancel={() => onDone(null)} />
    </form>
  )
}
