/** Builds what `zero exec -i stream-json` reads on stdin; zero rejects any field it does not know. */

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

export interface InputImage {
	mediaType: ImageMediaType;
	/** Standard base64, without a `data:` prefix. */
	data: string;
}

export class InputError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'InputError';
	}
}

/** Bytes a base64 string decodes to (without decoding it). */
export function base64DecodedBytes(data: string): number {
	const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
	return Math.floor((data.length * 3) / 4) - padding;
}

export function validateImage(
	image: { mediaType: string; data: string },
	name = 'image',
): InputImage {
	if (!(IMAGE_MEDIA_TYPES as readonly string[]).includes(image.mediaType)) {
		throw new InputError(
			`${name}: ${image.mediaType || 'unknown type'} is not supported; use PNG, JPEG, GIF or WebP.`,
		);
	}
	if (!/^[A-Za-z0-9+/]*={0,2}$/.test(image.data) || image.data.length % 4 !== 0) {
		throw new InputError(`${name}: the image data is not valid base64.`);
	}
	const bytes = base64DecodedBytes(image.data);
	if (bytes > MAX_IMAGE_BYTES) {
		throw new InputError(
			`${name}: ${(bytes / 1024 / 1024).toFixed(1)} MiB is over zero's 10 MiB image limit.`,
		);
	}
	return { mediaType: image.mediaType as ImageMediaType, data: image.data };
}

/** One stream-json `message` line (with LF) carrying the user's text and images. */
export function buildUserMessage(content: string, images: readonly InputImage[] = []): string {
	if (content.trim() === '' && images.length === 0) {
		throw new InputError('A message needs text or an image.');
	}
	const message: {
		schemaVersion: 2;
		type: 'message';
		role: 'user';
		content: string;
		images?: InputImage[];
	} = {
		schemaVersion: 2,
		type: 'message',
		role: 'user',
		content,
	};
	if (images.length > 0) {
		message.images = images.map((image) => ({ mediaType: image.mediaType, data: image.data }));
	}
	return `${JSON.stringify(message)}\n`;
}
