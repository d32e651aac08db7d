/** Tailwind CSS 4 runs as a PostCSS plugin; app/globals.css imports it. */
const config = {
  plugins: {
    '@tailwindcss/postcss': {},
  },
};

export default config;
