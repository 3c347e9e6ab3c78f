package io.idem.bench;
