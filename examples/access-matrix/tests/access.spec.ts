import { accessMatrix } from 'playwright-multiauth';

// One test per user and request of multiauth.yaml's `access` block (16 here), and a last one that
// attaches the observed matrix to the report (HTML and Markdown).
accessMatrix();
