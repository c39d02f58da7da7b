import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { smsOutbox } from '../../db/schema.js';

export interface SmsMessage {
  phone: string;
  text: string;
  /** The one-time code inside the text, kept separately only by the dev outbox. */
  code?: string;
}

/** Sends text messages. Implementations must never log the message text (it holds codes). */
export interface SmsSender {
  readonly kind: 'outbox' | 'sns';
  send(message: SmsMessage): Promise<void>;
}

/** Development outbox: messages are stored in the database and read through GET /api/dev/sms. */
export class OutboxSmsSender implements SmsSender {
  readonly kind = 'outbox';
  constructor(private readonly db: Database) {}

  async send(message: SmsMessage): Promise<void> {
    await this.db
      .insert(smsOutbox)
      .values({ phone: message.phone, text: message.text, code: message.code ?? null });
  }

  list(phone: string, limit = 20) {
    return this.db
      .select()
      .from(smsOutbox)
      .where(eq(smsOutbox.phone, phone))
      .orderBy(desc(smsOutbox.id))
      .limit(limit);
  }
}

/** AWS SNS direct-to-phone SMS (transactional), as the original runs in ap-south-1. */
export class SnsSmsSender implements SmsSender {
  readonly kind = 'sns';
  private readonly client: SNSClient;
  constructor(
    options: { region: string; endpoint?: string | undefined },
    private readonly senderId?: string,
  ) {
    this.client = new SNSClient({ region: options.region, endpoint: options.endpoint });
  }

  async send(message: SmsMessage): Promise<void> {
    await this.client.send(
      new PublishCommand({
        PhoneNumber: message.phone,
        Message: message.text,
        MessageAttributes: {
          'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
          ...(this.senderId
            ? { 'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: this.senderId } }
            : {}),
        },
      }),
    );
  }

  close() {
    this.client.destroy();
  }
}
