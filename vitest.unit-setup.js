// Unit tests (src/**/*.test.ts) run without a database, broker or network: opening a socket
// fails the test, so a test that needs one is moved to test/*.int.test.ts instead of slowing
// the unit tier down.
import net from 'node:net';

const refuse = (what) =>
  function () {
    throw new Error(
      `A unit test tried to ${what}. Unit tests use no network; move this test to test/*.int.test.ts.`,
    );
  };

net.Socket.prototype.connect = refuse('open a network connection');
net.Server.prototype.listen = refuse('listen on a port');
