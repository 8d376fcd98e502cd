import type { Config } from 'tailwindcss'
import { fileURLToPath } from 'node:url'

const client = fileURLToPath(new URL('../client', import.meta.url))

/**
 * Tailwind 3 for the client (ARCHITECTURE §2): client/styles.css, loaded on every page. Scans the
 * client sources only; Tremor's classes and its color safelist live in the Charts page's own
 * stylesheet (config/tailwind.charts.config.ts), so other pages do not download them.
 */
export default {
  content: [`${client}/index.html`, `${client}/**/*.{ts,tsx}`],
  theme: {
    transparent: 'transparent',
    current: 'currentColor',
    extend: {
      fontFamily: {
        sans: ['Inter', 'ui-sans-serif', 'system-ui', '-apple-system', 'Segoe UI', 'Roboto', 'Helvetica Neue', 'Arial', 'sans-serif'],
      },
      colors: {
        brand: {
          50: '#eef8f5',
          100: '#d5eee6',
          500: '#1f8a70',
          600: '#187560',
          700: '#135e4d',
          900: '#0b3a30',
        },
        // Tremor v3 theme tokens (light mode), on the brand green and the slate grays used elsewhere.
        tremor: {
          brand: { faint: '#eef8f5', muted: '#d5eee6', subtle: '#1f8a70', DEFAULT: '#187560', emphasis: '#135e4d', inverted: '#ffffff' },
          background: { muted: '#f8fafc', subtle: '#f1f5f9', DEFAULT: '#ffffff', emphasis: '#334155' },
          border: { DEFAULT: '#e2e8f0' },
          ring: { DEFAULT: '#e2e8f0' },
          content: { subtle: '#94a3b8', DEFAULT: '#64748b', emphasis: '#334155', strong: '#0f172a', inverted: '#ffffff' },
        },
      },
      boxShadow: {
        'tremor-input': '0 1px 2px 0 rgb(0 0 0 / 0.05)',
        'tremor-card': '0 1px 3px 0 rgb(0 0 0 / 0.1), 0 1px 2px -1px rgb(0 0 0 / 0.1)',
        'tremor-dropdown': '0 4px 6px -1px rgb(0 0 0 / 0.1), 0 2px 4px -2px rgb(0 0 0 / 0.1)',
      },
      borderRadius: {
        'tremor-small': '0.375rem',
        'tremor-default': '0.5rem',
        'tremor-full': '9999px',
      },
      fontSize: {
        'tremor-label': ['0.75rem', { lineHeight: '1rem' }],
        'tremor-default': ['0.875rem', { lineHeight: '1.25rem' }],
        'tremor-title': ['1.125rem', { lineHeight: '1.75rem' }],
        'tremor-metric': ['1.875rem', { lineHeight: '2.25rem' }],
      },
    },
  },
  plugins: [],
} satisfies Config
