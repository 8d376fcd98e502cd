import type { Config } from 'tailwindcss'
import { fileURLToPath } from 'node:url'
import base from './tailwind.config.ts'

const tremor = fileURLToPath(new URL('../node_modules/@tremor', import.meta.url))

// Tremor v3 builds its classes from the chart colors at run time, so Tailwind must generate them up
// front (Tremor's documented safelist). Only the colors the client passes to Tremor are listed, which
// keeps the stylesheet small; add a color here before using it in a Tremor `colors` prop.
const tremorColors = 'slate|emerald|teal|sky|indigo|amber|rose|cyan|violet'
const shades = '50|100|200|300|400|500|600|700|800|900|950'

/**
 * Tailwind for the Charts page's stylesheet (client/features/charts/charts.css): the client
 * sources and Tremor's, plus Tremor's color safelist. Its utilities are a superset of styles.css's,
 * in Tailwind's order, so loading it after styles.css leaves every other class's cascade as it was.
 */
export default {
  ...base,
  content: [...base.content, `${tremor}/**/*.{js,ts,jsx,tsx}`],
  safelist: [
    { pattern: new RegExp(`^(bg-(?:${tremorColors})-(?:${shades}))$`), variants: ['hover'] },
    { pattern: new RegExp(`^(text-(?:${tremorColors})-(?:${shades}))$`), variants: ['hover'] },
    { pattern: new RegExp(`^(border-(?:${tremorColors})-(?:${shades}))$`), variants: ['hover'] },
    { pattern: new RegExp(`^(ring-(?:${tremorColors})-(?:${shades}))$`) },
    { pattern: new RegExp(`^(stroke-(?:${tremorColors})-(?:${shades}))$`) },
    { pattern: new RegExp(`^(fill-(?:${tremorColors})-(?:${shades}))$`) },
  ],
} satisfies Config
