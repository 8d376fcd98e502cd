import type { Config } from 'tailwindcss'
import { fileURLToPath } from 'node:url'

const client = fileURLToPath(new URL('../client', import.meta.url))

/** Tailwind 3 for the client (ARCHITECTURE §2). Scans the client sources only. */
export default {
  content: [`${client}/index.html`, `${client}/**/*.{ts,tsx}`],
  theme: {
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
      },
    },
  },
  plugins: [],
} satisfies Config
