import type { Key, ReactNode } from 'react'

/** One column of an admin table: its header, and what each row shows under it. */
export type AdminColumn<Row> = {
  /** The header, and the cell's label when a narrow screen stacks the row into a card. */
  label: string
  /** Figures: header and cells right-aligned. */
  numeric?: boolean
  /** The row's buttons: the header is for screen readers only and the cells carry no label. */
  actions?: boolean
  /** The cells' own class (admin-mono, admin-table__name…). */
  className?: string
  /** A cell's accessible name, where it says more than the cell shows. */
  ariaLabel?: (row: Row) => string | undefined
  cell: (row: Row) => ReactNode
}

/** What a row carries beside its cells: a class and data-* attributes naming what it shows. */
export type AdminRowAttributes = {
  className?: string
  [data: `data-${string}`]: string | number | undefined
}

const cellClass = (column: Pick<AdminColumn<unknown>, 'numeric' | 'actions' | 'className'>) =>
  [column.numeric && 'admin-num', column.actions && 'admin-table__actions', column.className]
    .filter(Boolean)
    .join(' ') || undefined

/**
 * A list as the admin shows it: a table on a card (or `plain`, inside a panel) whose rows turn
 * into labelled cards on a narrow screen, each cell labelled with its column's header.
 */
export function AdminTable<Row>({
  columns,
  rows,
  rowKey,
  rowAttributes,
  plain = false,
}: {
  columns: readonly AdminColumn<Row>[]
  rows: readonly Row[]
  rowKey: (row: Row) => Key
  rowAttributes?: (row: Row) => AdminRowAttributes
  plain?: boolean
}) {
  return (
    <div className={plain ? 'admin-table-wrap' : 'card admin-table-wrap'}>
      <table className={plain ? 'admin-table admin-table--plain' : 'admin-table'}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.label}
                scope="col"
                className={column.numeric ? 'admin-num' : undefined}
              >
                {column.actions ? (
                  <span className="visually-hidden">{column.label}</span>
                ) : (
                  column.label
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowAttributes?.(row)}>
              {columns.map((column) => (
                <td
                  key={column.label}
                  data-label={column.actions ? undefined : column.label}
                  className={cellClass(column)}
                  aria-label={column.ariaLabel?.(row)}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
