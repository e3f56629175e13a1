import { orderActionSchema, ownerMayTake } from '@shop/domain'
import type { OrderActionInput, OwnerOrderAction } from '@shop/domain'
import { useId, useState } from 'react'
import { toast } from 'react-toastify'
import { useSWRConfig } from 'swr'

import type { AdminOrderDetail, AdminOrderEvent } from '../api/orders'
import { requestRecheck, statusLabel, takeOrderAction } from '../api/orders'
import { FormField } from '@/components/admin/FormField'
import { bsv, dateTime, EXPLORER_TX_URL } from '@/lib/admin/format'
import { useZodForm } from '@/lib/admin/form'

/** What each of the owner's actions is called, what it does, and what the toast says after. */
const ACTIONS: Record<OwnerOrderAction, { label: string; explain: string; done: string }> = {
  'mark-paid': {
    label: 'Mark as paid',
    explain:
      'Accept the money received (short, late or unconfirmed) or a payment made another way. The order is delivered; an expired order takes a copy from stock again.',
    done: 'Order marked as paid.',
  },
  cancel: {
    label: 'Cancel order',
    explain:
      'The order will not be delivered (for example an invalid payment, or money sent back). Its copy goes back into stock.',
    done: 'Order cancelled.',
  },
  refund: {
    label: 'Record a refund',
    explain:
      'Record the transaction that sent money back to the buyer. The status does not change: cancel the order too if it will not be delivered.',
    done: 'Refund recorded.',
  },
  settle: {
    label: 'Mark as settled',
    explain:
      'Nothing more to do (for example an overpayment kept, or an invalid payment replaced by a good one).',
    done: 'Order marked as settled.',
  },
}

const HISTORY_LABELS: Record<AdminOrderEvent['action'], string> = {
  status: 'Status changed',
  'mark-paid': 'Marked as paid',
  cancel: 'Cancelled',
  refund: 'Refund recorded',
  settle: 'Settled',
  recheck: 'Chain check requested',
  tracking: 'Tracking number corrected',
  'download-link': 'New download link sent',
}

/** The actions this order offers now: status moves from the table, a refund once money came. */
export function availableActions(order: AdminOrderDetail): OwnerOrderAction[] {
  const actions: OwnerOrderAction[] = []
  if (ownerMayTake('mark-paid', order.status)) actions.push('mark-paid')
  if (ownerMayTake('cancel', order.status)) actions.push('cancel')
  if (order.amountSatoshiReceived > 0) actions.push('refund')
  if (order.needsSettling) actions.push('settle')
  return actions
}

export function OrderSettling({
  order,
  onChanged,
}: {
  order: AdminOrderDetail
  onChanged: (order: AdminOrderDetail) => void
}) {
  const [open, setOpen] = useState<OwnerOrderAction | null>(null)
  const [checking, setChecking] = useState(false)
  const actions = availableActions(order)

  const recheck = async () => {
    setChecking(true)
    try {
      onChanged(await requestRecheck(order.id))
      toast.success('The payment worker will look at the chain for this order now.')
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : 'Failed to ask for a check.')
    } finally {
      setChecking(false)
    }
  }

  return (
    <div className="card admin-panel admin-settle">
      <h2>Settle this order</h2>
      {actions.length === 0 ? (
        <p className="muted">Nothing to settle: the order follows its course.</p>
      ) : (
        <div className="admin-settle__actions" role="group" aria-label="Owner actions">
          {actions.map((action) => (
            <button
              key={action}
              type="button"
              className={`button button--small ${open === action ? 'button--primary' : 'button--ghost'}`}
              aria-expanded={open === action}
              onClick={() => setOpen(open === action ? null : action)}
            >
              {ACTIONS[action].label}
            </button>
          ))}
        </div>
      )}
      {open ? (
        <ActionForm
          key={open}
          order={order}
          action={open}
          onDone={(updated) => {
            setOpen(null)
            onChanged(updated)
          }}
          onCancel={() => setOpen(null)}
        />
      ) : null}
      <div className="admin-settle__recheck">
        <button
          type="button"
          className="button button--small button--ghost"
          onClick={() => void recheck()}
          disabled={checking}
        >
          {checking ? 'Asking…' : 'Check the chain now'}
        </button>
        <span className="muted">
          {order.recheckRequestedAt
            ? `Asked ${dateTime(order.recheckRequestedAt)}; the worker looks within seconds.`
            : 'Looks at the payment address again, even long after the order expired.'}
        </span>
      </div>
    </div>
  )
}

function ActionForm({
  order,
  action,
  onDone,
  onCancel,
}: {
  order: AdminOrderDetail
  action: OwnerOrderAction
  onDone: (order: AdminOrderDetail) => void
  onCancel: () => void
}) {
  const id = useId()
  const form = useZodForm(orderActionSchema, { defaultValues: { action, note: '', txid: '' } })
  const { errors, isSubmitting } = form.formState
  const { mutate } = useSWRConfig()

  const onSubmit = async ({ note, txid }: OrderActionInput) => {
    try {
      const updated = await takeOrderAction(order.id, action, {
        note: note.trim(),
        ...(action === 'refund' ? { txid: (txid ?? '').trim() } : {}),
      })
      toast.success(ACTIONS[action].done)
      onDone(updated)
      void mutate('admin/stats')
    } catch (failure) {
      const message =
        failure instanceof Error && failure.message
          ? failure.message
          : 'Failed to update the order.'
      form.setError('note', { type: 'server', message })
      toast.error(`Failed: ${message}`)
    }
  }

  return (
    <form className="admin-settle__form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
      <h3>{ACTIONS[action].label}</h3>
      <p className="muted">{ACTIONS[action].explain}</p>
      {action === 'refund' ? (
        <FormField id={`${id}-txid`} label="Refund transaction id" error={errors.txid?.message}>
          {(control) => (
            <input
              {...control}
              {...form.register('txid')}
              className="admin-mono"
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </FormField>
      ) : null}
      <FormField id={`${id}-note`} label="Note (why)" error={errors.note?.message}>
        {(control) => (
          <textarea {...control} {...form.register('note')} maxLength={1000} rows={3} />
        )}
      </FormField>
      <div className="admin-settle__buttons">
        <button type="submit" className="button button--primary" disabled={isSubmitting}>
          {isSubmitting ? 'Saving...' : `Confirm: ${ACTIONS[action].label.toLowerCase()}`}
        </button>
        <button type="button" className="button button--ghost" onClick={onCancel}>
          Back
        </button>
      </div>
      {action === 'mark-paid' && order.amountSatoshiReceived < order.amountSatoshiExpected ? (
        <p className="admin-field__hint">
          Received {bsv(order.amountSatoshiReceived)} of {bsv(order.amountSatoshiExpected)}.
        </p>
      ) : null}
    </form>
  )
}

export function OrderHistory({ history }: { history: AdminOrderEvent[] }) {
  return (
    <div className="card admin-panel">
      <h2>History</h2>
      {history.length === 0 ? (
        <p className="muted">Nothing has happened to this order since it was placed.</p>
      ) : (
        <ol className="admin-history">
          {[...history].reverse().map((event, index) => (
            <li key={`${event.at}-${index}`} className="admin-history__entry">
              <div className="admin-history__head">
                <strong>{HISTORY_LABELS[event.action]}</strong>
                {event.fromStatus && event.toStatus && event.fromStatus !== event.toStatus ? (
                  <span>
                    {' '}
                    {statusLabel(event.fromStatus)} → {statusLabel(event.toStatus)}
                  </span>
                ) : null}
              </div>
              <div className="muted">
                {dateTime(event.at)} · {event.by}
              </div>
              {event.note ? <p className="admin-history__note">{event.note}</p> : null}
              {event.txid ? (
                <a
                  href={`${EXPLORER_TX_URL}${event.txid}`}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="admin-mono admin-break"
                >
                  {event.txid}
                </a>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}
