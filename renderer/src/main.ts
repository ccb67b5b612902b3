import { createApp, h } from 'vue';

createApp({ render: () => h('div', 'VMD Studio') }).mount('#app');
